import BlueZ
import Locks

/// The sessions feature: which devices BlueZ reports get a session, on which adapter (`+Placement`), and when
/// one ends. It owns the session table and the users' choices; the requests, the fleet and the device policy
/// ask it to start or stop a device's session.
final class DeviceSessions: Sendable {
    let context: GatewayContext
    /// The sessions, found by object path, `<family>/<id>` and address, and the devices that wait for a slot.
    let table = SessionTable()
    /// The users' choices and what the device policy learnt of each address.
    let choices = Mutex(DeviceChoices())
    let metrics = DeviceMetrics()
    /// What was last said of the devices: the retained list, and the scan's window.
    let inventoryBoard = InventoryBoard()
    let commandRouter: CommandRouter
    let homeAssistant: HomeAssistantAnnouncer
    /// Which adapters are powered: a device waits for their reports before its adapter is chosen.
    let adapterStatuses: AdapterStatusBoard
    /// In a fleet, only a device's owner connects it; nil for a gateway on its own.
    let fleet: FleetCoordinator?
    /// The devices adopted, and the join window.
    let adoptions: Adoptions

    init(
        context: GatewayContext, commandRouter: CommandRouter, homeAssistant: HomeAssistantAnnouncer,
        adapterStatuses: AdapterStatusBoard,
        fleet: FleetCoordinator?, adoptions: Adoptions
    ) {
        self.context = context
        self.adoptions = adoptions
        self.commandRouter = commandRouter
        self.homeAssistant = homeAssistant
        self.adapterStatuses = adapterStatuses
        self.fleet = fleet
    }

    /// The family that serves `device`: the one a `connect` request named, else the one it was first
    /// recognised as, else the one its advertisement matches (remembered from then on).
    func driver(for device: BlueZDevice) -> (any FamilyDriver)? {
        let known = choices.withLock { $0.family(of: device.address) }
        if let known { return context.driver(of: known) }
        guard let matched = context.drivers.first(where: { $0.matches(device) }) else { return nil }
        let held = table.addresses
        choices.withLock { choices in
            choices.forgetStrangers(held: held)
            choices.recognised[device.address] = matched.family
        }
        return matched
    }

    /// Starts a session for a device of a known family unless one runs or `ConnectionPolicy` says no; on the
    /// adapter `placement` chooses among those that see it. The verdict is taken again after the adapters that see
    /// it were read: a request that came meanwhile (`disconnect`, `connect` as another family, `forget`) wins over
    /// the sighting that started this. Before, a stale verdict served a belt as the Activ5 it had been asked for
    /// just after a `connect` request named it a belt (a chance failure of GatewayRequestTests on a loaded machine).
    func considerDevice(_ seen: BlueZDevice) async {
        guard context.adapterName(seen.adapterPath) != nil, table.path(serving: seen.address) == nil,
            let before = driver(for: seen), verdict(seen, driver: before) != nil,
            let candidates = await candidates(for: seen),
            let driver = driver(for: seen), let verdict = verdict(seen, driver: driver),
            take(verdict, of: seen, driver: driver)
        else { return }
        let address = seen.address
        let placed = table.place(
            address, wanted: { stillChosen(address, as: driver.family) },
            choose: { placement(among: candidates, load: $0) }
        ) { device in
            startSession(driver: driver, device: device)
        }
        if placed == .waiting(newly: true) { reportWaitingForSlot(seen, candidates: candidates) }
    }

    /// `ConnectionPolicy`'s verdict when it says connect, with the fleet's say (in a fleet only the device's owner
    /// connects it; a gateway alone owns what it connects); nil when the device stays.
    private func verdict(_ seen: BlueZDevice, driver: any FamilyDriver) -> ConnectionPolicy.Verdict? {
        var inputs = policyInputs(seen, driver: driver)
        if let fleet {
            inputs.fleetAllows = fleet.mayConnect(FleetCoordinator.key(driver.family, context.id(of: seen.address)))
        }
        let verdict = ConnectionPolicy.verdict(inputs)
        if case .stay = verdict { return nil }
        return verdict
    }

    /// Whether the users' choices still want `address` served as `family`: no `forget` under way, no `disconnect`
    /// since the last `connect`, no `connect` that named another family. Read under the session table's lock.
    private func stillChosen(_ address: String, as family: DeviceFamily) -> Bool {
        choices.withLock { choices in
            if choices.forgetting.contains(address) { return false }
            if let named = choices.family(of: address), named != family { return false }
            return choices.requested[address] != nil || !choices.released.contains(address)
        }
    }

    func considerAllDevices() async {
        for device in await allDevices() { await considerDevice(device) }
    }

    /// Whether the users' choices want the device connected, wherever the fleet puts it (`ConnectionPolicy`); a
    /// device seen while a join window is open is adopted.
    func wants(_ device: BlueZDevice, driver: any FamilyDriver) -> Bool {
        take(ConnectionPolicy.verdict(policyInputs(device, driver: driver)), of: device, driver: driver)
    }

    /// Whether the device is one of the gateway's, served and announced (`ConnectionPolicy.membership`). A stranger
    /// that only advertises a family's name is not, and leaves nothing retained.
    func isAdopted(_ device: BlueZDevice, driver: any FamilyDriver) -> Bool {
        ConnectionPolicy.membership(policyInputs(device, driver: driver)) == .member
    }

    /// What `ConnectionPolicy` needs to know of the device, outside a fleet's say.
    private func policyInputs(_ device: BlueZDevice, driver: any FamilyDriver) -> ConnectionPolicy.Inputs {
        let address = device.address
        let (requested, released, forgetting) = choices.withLock {
            ($0.requested[address] != nil, $0.released.contains(address), $0.forgetting.contains(address))
        }
        return ConnectionPolicy.Inputs(
            policyAllows: context.live.autoConnect.allows(address),
            restoresBond: driver.restoresBondedDevices && device.paired, requested: requested, released: released,
            followsAdoption: adoptions.follows, adopted: adoptions.contains(address),
            joinWindowOpen: adoptions.joinWindowIsOpen, beingForgotten: forgetting)
    }

    /// Acts on a verdict: a device joining through the window is adopted first (false when the list is full, or the
    /// window has adopted its most).
    private func take(_ verdict: ConnectionPolicy.Verdict, of device: BlueZDevice, driver: any FamilyDriver) -> Bool {
        switch verdict {
        case .connect(adopting: false): true
        case .connect(adopting: true): adoptions.adoptJoining(device.address, as: driver.family)
        case .stay: false
        }
    }

    /// Starts the device's session and its command queue, and announces it to Home Assistant; the session
    /// table adds what this returns (`SessionTable.place`).
    private func startSession(driver: any FamilyDriver, device: BlueZDevice) -> RunningSession {
        let context = context
        context.logger.info(
            "device found",
            metadata: [
                "device": "\(device.address)", "family": "\(driver.family.rawValue)", "name": "\(device.name ?? "")",
                "adapter": "\(context.adapterName(device.adapterPath) ?? "")",
            ])
        let path = device.path
        let connection = ConnectionRecord()
        let options = context.live.options(of: device.address)
        let streams = StreamSwitch(leaves: driver.streamLeaves, on: options.streaming)
        let intervals = DeviceIntervals(options.intervals)
        let sessionContext = SessionContext(
            link: { context.bluez.link(to: $0) }, publisher: context.publisher, logger: context.logger,
            gateway: context.configuration.gateway,
            id: context.id(of: device.address), liveStateLeaves: driver.liveStateLeaves, metrics: metrics,
            connection: connection, stateChanged: { [weak self] _ in self?.publishInventoryLater() },
            described: { [weak self] info in self?.homeAssistant.describe(at: path, info: info) },
            streams: streams, intervals: intervals, slowLinkFactor: context.configuration.slowLinkFactor)
        let session = driver.makeSession(for: device, context: sessionContext)
        let (commands, continuation) = commandRouter.makeQueue()
        let commandRouter = commandRouter
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await session.run() }
                group.addTask { await commandRouter.execute(commands, on: session, connection: connection) }
            }
        }
        homeAssistant.announce(
            HomeAssistantDiscovery.Device(
                // The identity the announcer settles (`HomeAssistantAnnouncer.identity`); named by its alias when it has one.
                family: driver.family, id: session.id, address: device.address,
                identity: DeviceID.from(address: device.address),
                name: context.live.alias(of: device.address) ?? device.name ?? device.alias,
                model: driver.homeAssistant, options: options, streamLeaves: driver.streamLeaves),
            at: path)
        return RunningSession(
            session: session, address: device.address, adapter: context.adapterName(device.adapterPath) ?? "",
            task: task, commands: continuation, connection: connection, streams: streams,
            intervals: intervals)
    }

    /// Stops a device's session (and its link); the freed slot may go to a device that waits for one.
    /// With `settled`, also waits (up to 15 s) for the session's task to end: a task cancelled inside a
    /// connection attempt still makes its last calls (an abandoned link's Disconnect), which on the real
    /// stack took down the link of a session a `connect` request started right after a `disconnect`.
    func stopSession(at path: String, settled: Bool = false) async {
        guard let entry = table.remove(at: path) else { return }
        entry.commands.finish()
        entry.task.cancel()
        await entry.session.shutDown()
        metrics.release(DeviceMetrics.key(entry.session.family, entry.session.id))
        if settled {
            let ended = FirstAnswer<Bool>()
            let watcher = Task {
                await entry.task.value
                ended.answer(true)
            }
            let timer = ended.answer(false, at: .now + .seconds(15))
            if await !ended.value { context.logger.warning("a stopped session's task is still running after 15 s") }
            timer.cancel()
            watcher.cancel()
        }
        if table.hasWaiting { context.background.spawn { await self.considerAllDevices() } }
    }

    /// Ends every session at shutdown, all at once: bluetoothd answers a Disconnect only when the link is
    /// down, up to 2 s later.
    func stopAll() async {
        let all = table.removeAll()
        context.background.cancelAll()
        context.logger.debug("stopping sessions", metadata: ["sessions": "\(all.count)"])
        await withTaskGroup(of: Void.self) { group in
            for entry in all {
                entry.commands.finish()
                entry.task.cancel()
                group.addTask { await entry.session.shutDown() }
            }
        }
    }

    /// The command queue of the session serving `<family>/<id>`, if one does.
    func commandQueue(family: DeviceFamily, id: String) -> AsyncStream<CommandRouter.Queued>.Continuation? {
        table.session(family: family, id: id)?.commands
    }
}
