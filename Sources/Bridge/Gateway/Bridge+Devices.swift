import BlueZ

/// The device policy: which devices BlueZ reports get a session, on which adapter, and when one ends.
extension Bridge {
    /// Reacts to BlueZ: new or changed devices may be belts; a device that drops its link ends its session's link.
    func follow(_ events: AsyncStream<BlueZEvent>, bluez: any BluetoothCentral) async {
        await considerAllDevices(bluez)
        await refreshAdapterStatuses(bluez)
        for await event in events {
            // The adapter's state comes from the event itself: by the time it is handled, the cache may
            // already hold a bluetoothd that came back.
            switch event {
            case .serviceVanished:
                for name in configuration.adapters { publishAdapterStatus(.missing, of: name) }
                for session in sessions.all { await session.linkDidDrop() }
            case .serviceAppeared:
                await refreshAdapterStatuses(bluez)
                await considerAllDevices(bluez)
            case .interfacesRemoved(let path, let interfaces) where interfaces.contains(BlueZInterface.adapter):
                if let name = adapterName(path) { publishAdapterStatus(.missing, of: name) }
            case .interfacesAdded(let path, _) where adapterName(path) != nil:
                await refreshAdapterStatuses(bluez)
            case .propertiesChanged(let path, BlueZInterface.adapter, let changed, _):
                if let name = adapterName(path), let powered = changed["Powered"]?.bool {
                    publishAdapterStatus(powered ? .powered : .off, of: name)
                }
            case .interfacesAdded(let path, let interfaces) where interfaces.contains(BlueZInterface.device):
                if let device = await bluez.device(at: path) {
                    reportSighting(device)
                    await considerDevice(device, bluez: bluez)
                }
                await publishInventory(bluez)
            case .propertiesChanged(let path, BlueZInterface.device, let changed, _):
                let session = sessions.session(at: path)?.session
                // Only while the link is still down: a late `Connected: false` of an earlier link (one a
                // `disconnect` request closed just before a `connect` request opened the next) must not
                // end the new one. The cache already holds what came after the event.
                if changed["Connected"]?.bool == false, let session, await bluez.device(at: path)?.connected != true {
                    await session.linkDidDrop()
                }
                if changed["Name"] != nil || changed["UUIDs"] != nil || changed["RSSI"] != nil, let device = await bluez.device(at: path) {
                    reportSighting(device)
                    await considerDevice(device, bluez: bluez)
                }
                if changed["Paired"] != nil || changed["Name"] != nil { await publishInventory(bluez) }
            case .interfacesRemoved(let path, let interfaces) where interfaces.contains(BlueZInterface.gattService):
                // The device's GATT server went away while the link stayed up (on the real stack when the
                // peripheral's application ends; a Service Changed can do the same): its session starts over.
                let owner = sessions.session(holding: path)
                if let owner { await owner.linkDidDrop() }
            case .interfacesRemoved(let path, let interfaces) where interfaces.contains(BlueZInterface.device):
                // bluetoothd drops a device it has never connected when discovery ends (BlueZoo keeps it):
                // a session reconnecting to the gone object would only fail; the device gets a new one
                // when it is seen again.
                await stopSession(at: path, bluez: bluez)
                await publishInventory(bluez)
            default:
                break
            }
        }
    }

    /// The family that serves `device`: the one a `connect` request named, else the one it was first
    /// recognised as, else the one its advertisement matches (remembered from then on).
    func driver(for device: BlueZDevice) -> (any FamilyDriver)? {
        let known = choices.withLock { ($0.requested[device.address] ?? nil) ?? $0.recognised[device.address] }
        if let known { return drivers.first { $0.family == known } }
        guard let matched = drivers.first(where: { $0.matches(device) }) else { return nil }
        let held = sessions.addresses
        choices.withLock { choices in
            choices.forgetStrangers(held: held)
            choices.recognised[device.address] = matched.family
        }
        return matched
    }

    /// Starts a session for a device of a known family unless one runs, the policy says no, or a
    /// `disconnect` request took it down; on the adapter `placement` chooses among those that see it.
    func considerDevice(_ seen: BlueZDevice, bluez: any BluetoothCentral, force: Bool = false) async {
        guard adapterName(seen.adapterPath) != nil, let driver = driver(for: seen) else { return }
        let address = seen.address
        // In a fleet only the device's owner connects it (a gateway alone owns what it connects).
        if let fleet, !fleet.mayConnect(FleetCoordinator.key(driver.family, id(of: address))) { return }
        guard sessions.path(serving: address) == nil, force || choices.withLock({ wants(seen, driver: driver, choices: $0) }),
            let candidates = await candidates(for: seen, bluez: bluez)
        else { return }
        let placed = sessions.place(address, choose: { placement(among: candidates, load: $0) }) { device in
            startSession(driver: driver, device: device, bluez: bluez)
        }
        if placed == .waiting(newly: true) { reportWaitingForSlot(seen, candidates: candidates, bluez: bluez) }
    }

    /// Whether the users' choices let the device connect: a `connect` request for it, or the auto-connect
    /// policy unless a `disconnect` request took it down.
    func wants(_ device: BlueZDevice, driver: any FamilyDriver, choices: DeviceChoices) -> Bool {
        // A bonded device of a family that restores its bonds (the grip) connects whatever the policy says.
        let restored = driver.restoresBondedDevices && device.paired
        let allowed = configuration.autoConnect.allows(device.address) || restored
        return choices.requested[device.address] != nil || (allowed && !choices.released.contains(device.address))
    }

    /// Starts the device's session and its command queue, and announces it to Home Assistant; the session
    /// table adds what this returns (`SessionTable.place`).
    private func startSession(driver: any FamilyDriver, device: BlueZDevice, bluez: any BluetoothCentral) -> RunningSession {
        logger.info("device found", metadata: [
            "device": "\(device.address)", "family": "\(driver.family.rawValue)", "name": "\(device.name ?? "")",
            "adapter": "\(adapterName(device.adapterPath) ?? "")",
        ])
        let path = device.path
        let context = SessionContext(
            link: { bluez.link(to: $0) }, publisher: publisher, logger: logger, gateway: configuration.gateway,
            id: id(of: device.address), liveStateLeaves: driver.liveStateLeaves, metrics: metrics,
            stateChanged: { [weak self] newState in
                guard let self else { return }
                self.sessions.setConnectionState(newState, at: path)
                self.commandRouter.connectionChanged(path, to: newState)
                self.background.spawn { await self.publishInventory(bluez) }
            },
            described: { [weak self] info in self?.homeAssistant.describe(at: path, info: info) })
        let session = driver.makeSession(for: device, context: context)
        let (commands, continuation) = commandRouter.makeQueue()
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await session.run() }
                group.addTask { await self.commandRouter.execute(commands, on: session, path: path) }
            }
        }
        homeAssistant.announce(
            HomeAssistantDiscovery.Device(
                family: driver.family, id: session.id, address: device.address, name: device.name ?? device.alias,
                model: driver.homeAssistant),
            at: path)
        return RunningSession(
            session: session, address: device.address, adapter: adapterName(device.adapterPath) ?? "", task: task, commands: continuation)
    }

    /// A device's `<id>`: its configured alias, else its address in lower-case hex.
    func id(of address: String) -> String {
        configuration.aliases[address.uppercased()] ?? DeviceID.from(address: address)
    }

    /// Stops a device's session (and its link); the freed slot may go to a device that waits for one.
    /// With `settled`, also waits (up to 15 s) for the session's task to end: a task cancelled inside a
    /// connection attempt still makes its last calls (an abandoned link's Disconnect), which on the real
    /// stack took down the link of a session a `connect` request started right after a `disconnect`.
    func stopSession(at path: String, bluez: any BluetoothCentral, settled: Bool = false) async {
        guard let entry = sessions.remove(at: path) else { return }
        entry.commands.finish()
        entry.task.cancel()
        await entry.session.shutDown()
        metrics.release(DeviceMetrics.key(entry.session.family, entry.session.id))
        if settled {
            let ended = FirstAnswer<Bool>()
            let watcher = Task { await entry.task.value; ended.answer(true) }
            let timer = ended.answer(false, at: .now + .seconds(15))
            if await !ended.value { logger.warning("a stopped session's task is still running after 15 s") }
            timer.cancel()
            watcher.cancel()
        }
        if sessions.hasWaiting { background.spawn { await self.considerAllDevices(bluez) } }
    }
}

extension Bridge {
    /// The command queue of the session serving `<family>/<id>`, if one does.
    func commandQueue(family: DeviceFamily, id: String) -> AsyncStream<CommandRouter.Queued>.Continuation? {
        sessions.session(family: family, id: id)?.commands
    }
}
