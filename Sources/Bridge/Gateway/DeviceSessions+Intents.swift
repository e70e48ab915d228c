import BlueZ

/// What the users and the fleet ask of a device, stated to the sessions feature, which alone edits its choices, its
/// table and the adoptions it keeps in step with them: the requests say connect, release or forget, the fleet's turn
/// granted or withdrew, and neither reaches inside.
extension DeviceSessions {
    /// Connect `device` now (a `connect` request), as `family` when one is named: it is adopted and placed whatever
    /// the auto-connect policy says. Returns the family that serves it.
    func connect(_ device: BlueZDevice, as family: DeviceFamily?) async throws(CommandError) -> DeviceFamily {
        let address = device.address
        choices.withLock { choices in
            choices.requested[address] = family
            choices.released.remove(address)
        }
        guard let driver = driver(for: device) else {
            choices.withLock { _ = $0.requested.removeValue(forKey: address) }
            throw CommandError(.invalidValue, "\(address) belongs to no known family; name one with 'family'")
        }
        adoptions.adopt(address, as: driver.family, by: "connect request")
        await considerDevice(device)
        return driver.family
    }

    /// Keep `device` disconnected until asked again (a `disconnect` request): its session ends, and waits until
    /// its task has (`stopSession(at:settled:)`).
    func release(_ device: BlueZDevice) async {
        choices.withLock { choices in
            choices.requested.removeValue(forKey: device.address)
            choices.released.insert(device.address)
        }
        await stopSession(at: device.path, settled: true)
    }

    /// The fleet's turn says this gateway should hold `device` (it owns it, or may take it): it is considered as a
    /// sighting is, and `ConnectionPolicy`, with the owner's say among its inputs, decides.
    func fleetGranted(_ device: BlueZDevice) async {
        await considerDevice(device)
    }

    /// The fleet's turn says another gateway holds the device now, or this one must let go of it: the session at
    /// `path` ends. It may come back at a later turn.
    func fleetWithdrew(at path: String) async {
        await stopSession(at: path)
    }

    /// BlueZ removed the device's object (bluetoothd drops a device it never connected when discovery ends): a
    /// session reconnecting to it would only fail. The device gets a new one when it is seen again.
    func objectRemoved(at path: String) async {
        await stopSession(at: path)
    }

    /// Adopt a device the gateway just bonded with (a `pair` request), when it is of a known family.
    func adoptPaired(_ device: BlueZDevice) {
        if let family = driver(for: device)?.family { adoptions.adopt(device.address, as: family, by: "pair request") }
    }

    /// Forget `device` (a `forget` request): no longer adopted, requested or recognised, its session ended, its
    /// Home Assistant entities withdrawn, and then its BlueZ objects and bonds removed (`removeObjects`). Until
    /// they are, no sighting starts a session for it: a grip is still bonded until then, and its bond (which a
    /// grip's session restores) would bring it back, announced again, with nobody left to withdraw it.
    func forget(
        _ device: BlueZDevice, removeObjects: () async throws(CommandError) -> Void
    ) async throws(CommandError) {
        let address = device.address
        choices.withLock { choices in
            choices.requested.removeValue(forKey: address)
            choices.recognised.removeValue(forKey: address)
            choices.forgetting.insert(address)
        }
        defer { choices.withLock { _ = $0.forgetting.remove(address) } }
        adoptions.forget(address)
        await stopSession(at: device.path, settled: true)
        homeAssistant.withdraw(at: device.path)
        try await removeObjects()
    }

    /// The allow list or `auto_connect` changed (`request/options`): sessions of devices no longer wanted end (one a
    /// `connect` request asked for stays), and devices now wanted connect.
    func policyChanged() async {
        for path in table.paths {
            guard let device = await context.bluez.device(at: path), let driver = driver(for: device),
                !wants(device, driver: driver)
            else { continue }
            await stopSession(at: path)
        }
        await considerAllDevices()
        await publishInventory()
    }
}
