import BlueZ

/// The retained `gatt2mqtt/<gateway>/devices` list and the scan's sightings: what the sessions feature tells of
/// the devices it sees.
extension DeviceSessions {
    func inventory() async -> DeviceInventory {
        let devices = await allDevices()
        let (states, served, waiting) = table.inventoryView()
        let entries = devices.compactMap { device -> DeviceInventory.Entry? in
            guard let driver = driver(for: device) else { return nil }
            let serving = served.contains(device.path)
            let state =
                serving
                ? states[device.path]?.rawValue ?? "disconnected"
                : waiting.contains(device.address) ? "waiting_for_slot" : "idle"
            return DeviceInventory.Entry(
                address: device.address, id: context.id(of: device.address), family: driver.family,
                name: device.name ?? device.alias,
                state: state, rssi: device.rssi, paired: device.paired,
                adapter: serving ? context.adapterName(device.adapterPath) : nil,
                adopted: serving || isAdopted(device, driver: driver))
        }
        return DeviceInventory(entries: entries)
    }

    /// Publishes the retained list when it changed.
    func publishInventory() async {
        let text = await inventory().retainedText
        if inventoryBoard.changed(to: text) { context.publisher.publish(.state(context.topics.devices, text)) }
    }

    func publishInventoryLater() {
        context.background.spawn { await self.publishInventory() }
    }

    /// During a scan, every device seen goes to `gatt2mqtt/<gateway>/scan`.
    func reportSighting(_ device: BlueZDevice) {
        guard let adapter = context.adapterName(device.adapterPath), inventoryBoard.scanWindow.sighted(device.address)
        else { return }
        var members: [String: JSONValue] = [
            "address": .string(device.address), "paired": .bool(device.paired), "adapter": .string(adapter),
        ]
        members["family"] = driver(for: device).map { .string($0.family.rawValue) } ?? .null
        if let name = device.name ?? device.alias { members["name"] = .string(name) }
        if let rssi = device.rssi { members["rssi"] = .number(Double(rssi)) }
        context.publisher.publish(Publication(topic: context.topics.scan, payload: JSONValue.object(members).text))
    }
}
