import BlueZ

/// Placement: which of the adapters that hear a device serves it, within their slots.
extension DeviceSessions {
    /// How long a device seen by some of the adapters waits for the others' reports before one is
    /// chosen: about two scan rounds, so that the first adapter to report is not the one that wins.
    static let adapterSettle = Duration.seconds(2)

    /// The object that stands for a device seen by several adapters: the one of the adapter that serves
    /// it, else of the one with the strongest signal (the first in the configured order on a tie).
    func representative(of objects: [BlueZDevice], serving: Set<String>) -> BlueZDevice {
        objects.first { serving.contains($0.path) }
            ?? objects.dropFirst().reduce(objects[0]) { kept, next in
                (next.rssi ?? .min) > (kept.rssi ?? .min) ? next : kept
            }
    }

    /// Every device any adapter has seen, once per address (`representative`).
    func allDevices() async -> [BlueZDevice] {
        let groups = await context.sightings()
        let serving = table.paths
        return groups.map { representative(of: $0, serving: serving) }
    }

    /// The device's objects on the adapters that report it, once they may be chosen from; nil while the
    /// other adapters' reports are awaited (the device is considered again then).
    func candidates(for seen: BlueZDevice) async -> [BlueZDevice]? {
        let objects = await context.objects(of: seen.address)
        let address = seen.address
        let powered = adapterStatuses.powered
        let held = table.addresses
        let settleEnds = choices.withLock { choices in
            if choices.firstSeen[address] == nil { choices.forgetStrangers(held: held) }
            let first = choices.firstSeen[address] ?? .now
            choices.firstSeen[address] = first
            return first + Self.adapterSettle
        }
        let reporting = Set(objects.compactMap { context.adapterName($0.adapterPath) })
        if !Set(powered).isSubset(of: reporting), ContinuousClock.now < settleEnds {
            let scheduled = choices.withLock { $0.settling.insert(address).inserted }
            if scheduled {
                let bluez = context.bluez
                context.background.spawn {
                    try? await Task.sleep(until: settleEnds)
                    self.choices.withLock { _ = $0.settling.remove(address) }
                    if let device = await bluez.device(at: seen.path) { await self.considerDevice(device) }
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
        let configuration = context.configuration
        let choice = AdapterChoice(adapters: configuration.adapters, slots: configuration.adapterSlots)
        let sightings = candidates.map {
            AdapterChoice.Sighting(adapter: context.adapterName($0.adapterPath) ?? "", rssi: $0.rssi, paired: $0.paired)
        }
        guard let chosen = choice.choose(sightings, load: load) else { return nil }
        return candidates.first { context.adapterName($0.adapterPath) == chosen }
    }

    /// Says once (log and inventory) that a device waits for a slot.
    func reportWaitingForSlot(_ device: BlueZDevice, candidates: [BlueZDevice]) {
        context.logger.warning(
            "no free connection slot for a device; it waits for one",
            metadata: [
                "device": "\(device.address)",
                "adapters": "\(candidates.compactMap { context.adapterName($0.adapterPath) }.joined(separator: ","))",
                "slots": "\(context.configuration.adapterSlots)",
            ])
        publishInventoryLater()
    }
}
