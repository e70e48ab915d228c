import BlueZ

/// The gateway's adapters: their retained status, discovery on each, and which one serves a device.
extension Bridge {
    /// How long a device seen by some of the adapters waits for the others' reports before one is
    /// chosen: about two scan rounds, so that the first adapter to report is not the one that wins.
    static let adapterSettle = Duration.seconds(2)

    /// `hci0` for `/org/bluez/hci0` when it is one of the configured adapters, else nil.
    func adapterName(_ path: String) -> String? {
        guard path.hasPrefix("/org/bluez/") else { return nil }
        let name = String(path.dropFirst("/org/bluez/".count))
        return configuration.adapters.contains(name) ? name : nil
    }

    func adapterPath(_ name: String) -> String { "/org/bluez/" + name }

    /// The device's objects on every configured adapter that has seen it, in the configured order.
    func objects(of address: String, bluez: any BluetoothCentral) async -> [BlueZDevice] {
        var objects: [BlueZDevice] = []
        for name in configuration.adapters {
            if let device = await bluez.devices(on: adapterPath(name)).first(where: { $0.address.uppercased() == address.uppercased() }) {
                objects.append(device)
            }
        }
        return objects
    }

    /// Every device any adapter has seen, once per address, with its objects on the configured adapters
    /// (in their order).
    func sightings(_ bluez: any BluetoothCentral) async -> [[BlueZDevice]] {
        var byAddress: [String: [BlueZDevice]] = [:]
        var order: [String] = []
        for name in configuration.adapters {
            for device in await bluez.devices(on: adapterPath(name)) {
                if byAddress[device.address] == nil { order.append(device.address) }
                byAddress[device.address, default: []].append(device)
            }
        }
        return order.compactMap { byAddress[$0] }
    }

    /// The object that stands for a device seen by several adapters: the one of the adapter that serves
    /// it, else of the one with the strongest signal (the first in the configured order on a tie).
    func representative(of objects: [BlueZDevice], serving: Set<String>) -> BlueZDevice {
        objects.first { serving.contains($0.path) }
            ?? objects.dropFirst().reduce(objects[0]) { kept, next in (next.rssi ?? .min) > (kept.rssi ?? .min) ? next : kept }
    }

    /// Every device any adapter has seen, once per address (`representative`).
    func allDevices(_ bluez: any BluetoothCentral) async -> [BlueZDevice] {
        let groups = await sightings(bluez)
        let serving = sessions.paths
        return groups.map { representative(of: $0, serving: serving) }
    }

    func considerAllDevices(_ bluez: any BluetoothCentral) async {
        for device in await allDevices(bluez) { await considerDevice(device, bluez: bluez) }
    }

    /// The device's objects on the adapters that report it, once they may be chosen from; nil while the
    /// other adapters' reports are awaited (the device is considered again then).
    func candidates(for seen: BlueZDevice, bluez: any BluetoothCentral) async -> [BlueZDevice]? {
        let objects = await objects(of: seen.address, bluez: bluez)
        let address = seen.address
        let powered = adapterStatuses.powered
        let held = sessions.addresses
        let settleEnds = choices.withLock { choices in
            if choices.firstSeen[address] == nil { choices.forgetStrangers(held: held) }
            let first = choices.firstSeen[address] ?? .now
            choices.firstSeen[address] = first
            return first + Self.adapterSettle
        }
        let reporting = Set(objects.compactMap { adapterName($0.adapterPath) })
        if !Set(powered).isSubset(of: reporting), ContinuousClock.now < settleEnds {
            let scheduled = choices.withLock { $0.settling.insert(address).inserted }
            if scheduled {
                background.spawn {
                    try? await Task.sleep(until: settleEnds)
                    self.choices.withLock { _ = $0.settling.remove(address) }
                    if let device = await bluez.device(at: seen.path) { await self.considerDevice(device, bluez: bluez) }
                }
            }
            return nil
        }
        return objects
    }

    /// The object through which to connect a device, among its `candidates`, given the sessions per adapter
    /// (`load`); nil when every adapter that may serve it is full. Called under the session table's lock
    /// together with starting the session (`SessionTable.place`), so that two devices never take one
    /// adapter's last slot.
    func placement(among candidates: [BlueZDevice], load: [String: Int]) -> BlueZDevice? {
        let choice = AdapterChoice(adapters: configuration.adapters, slots: configuration.adapterSlots)
        let sightings = candidates.map { AdapterChoice.Sighting(adapter: adapterName($0.adapterPath) ?? "", rssi: $0.rssi, paired: $0.paired) }
        guard let chosen = choice.choose(sightings, load: load) else { return nil }
        return candidates.first { adapterName($0.adapterPath) == chosen }
    }

    /// Says once (log and inventory) that a device waits for a slot.
    func reportWaitingForSlot(_ device: BlueZDevice, candidates: [BlueZDevice], bluez: any BluetoothCentral) {
        logger.warning("no free connection slot for a device; it waits for one", metadata: [
            "device": "\(device.address)", "adapters": "\(candidates.compactMap { adapterName($0.adapterPath) }.joined(separator: ","))",
            "slots": "\(configuration.adapterSlots)",
        ])
        background.spawn { await self.publishInventory(bluez) }
    }

    // MARK: Status

    /// Reads every adapter's status from BlueZ and publishes the changed ones.
    func refreshAdapterStatuses(_ bluez: any BluetoothCentral) async {
        for name in configuration.adapters {
            let status = AdapterStatus.of(
                powered: await bluez.adapter(named: name)?.powered, serviceRunning: await bluez.isServiceRunning,
                accessDenied: bluez.accessDenied)
            publishAdapterStatus(status, of: name)
        }
    }

    /// Publishes `gatt2mqtt/<gateway>/adapter/<name>` when it changed, and the summary on
    /// `gatt2mqtt/<gateway>/adapter` when that changed (both retained).
    func publishAdapterStatus(_ status: AdapterStatus, of name: String) {
        let (changed, summary) = adapterStatuses.record(status, of: name)
        if changed {
            logger.info("adapter \(status.rawValue)", metadata: ["adapter": "\(name)"])
            publisher.publish(.state(topics.adapter(name), status.rawValue))
        }
        if let summary { publisher.publish(.state(topics.adapter, summary.rawValue)) }
    }

    // MARK: Discovery

    /// Keeps LE discovery running on every adapter, starting it again after BlueZ comes back.
    func keepDiscovering(_ bluez: any BluetoothCentral) async {
        while !Task.isCancelled {
            for name in configuration.adapters {
                guard let adapter = await bluez.adapter(named: name), adapter.powered, !adapter.discovering else { continue }
                do {
                    if try await bluez.startDiscovery(adapterPath: adapter.path) {
                        logger.info("discovery started", metadata: ["adapter": "\(name)"])
                    }
                } catch {
                    logger.warning("cannot start discovery: \(error)", metadata: ["adapter": "\(name)"])
                }
            }
            try? await Task.sleep(for: .seconds(2))
        }
    }
}
