import BlueZ

/// The one session engine: runs a device of any family its `FamilyProfile` declares. The lifecycle is
/// `LinkedSession`'s; this adds what every family did by hand before: it prepares and connects, subscribes the
/// profile's streams around its handshake (`ConnectedDevice`, inside the connection's scope), goes live, starts the
/// profile's timers, and executes commands while connected. When the link ends, the scope's tasks have ended before
/// the stream state goes back to how a connection starts: there is no teardown list.
actor ProfileSession<Profile: FamilyProfile>: LinkedSession, CommandedSession {
    nonisolated let core: SessionCore
    var state: ConnectionState { core.connectionRecord.current }
    private let device: ConnectedDevice<Profile>
    private var profile: Profile { device.profile }
    var reconnects: Bool { profile.reconnects }

    init(device: BlueZDevice, context: SessionContext, profile: Profile) {
        core = SessionCore(
            device: device, context: context, family: profile.family, reportsSignal: profile.reportsSignal)
        self.device = ConnectedDevice(profile: profile, core: core)
    }

    // MARK: Lifecycle

    /// What the profile says while connecting is held and published together with `connected`, on this actor with
    /// no suspension between (a command waits for the actor): whoever acts on a handshake's state finds the session
    /// connected. A failed attempt publishes it as it fails (a grip's `pairing_failed`).
    func connectAndSetUp() async throws {
        setState(.connecting)
        device.hold()
        let outcome: HandshakeOutcome
        do {
            outcome = try await handshake()
        } catch {
            device.release()
            throw error
        }
        switch outcome {
        case .silent(let reason):
            device.release(connected: true)
            setState(.connected)
            core.logger.warning("connected without streams: \(reason)")
        case .streaming:
            device.lane.goLive()
            profile.streamsAreLive(device)
            device.release(connected: true)
            setState(.connected)
            await profile.connected(device)
            for timer in profile.timers {
                device.repeating(timer.key, every: timer.interval, pacedBy: timer.setting, timer.action)
            }
        }
    }

    /// Prepares, connects and runs the profile's handshake with its streams subscribed before or after it.
    private func handshake() async throws -> HandshakeOutcome {
        try await profile.prepare(device)
        try await core.link.connect(timeout: profile.connectTimeout * core.slowLinkFactor)
        setState(.handshake)
        let atStart = profile.streams.filter(\.atStart)
        if profile.subscribesBeforeHandshake {
            for stream in atStart { try await device.subscribe(stream) }
        }
        let outcome = try await profile.handshake(device)
        if outcome == .streaming, !profile.subscribesBeforeHandshake {
            for stream in atStart { try await device.subscribe(stream) }
        }
        return outcome
    }

    /// The link ended and every task of it has: the stream state says what it must of that and starts over, and the
    /// live leaves are forgotten. The memory stays, with what the profile keeps of the link.
    func tearDown() async {
        device.cancelAnswers()
        let (initial, liveLeaves, profile, core) = (profile.initialStreamState, core.liveStateLeaves, profile, core)
        device.lane.publish { state in state.publications(profile.linkEnded(&state.stream), topics: core) }
        device.lane.stop { state in
            state.stream = initial
            state.retained.forget(liveLeaves)
            state.connected = false
            profile.linkEnded(remembering: &state.memory, for: core.id)
        }
        setState(.disconnected)
    }

    // MARK: Commands

    func execute(_ command: Profile.Command, name: String) async throws(CommandError) -> [String: JSONValue] {
        guard state == .connected else {
            if let reply = try profile.executeWhileAway(command, name: name, on: device) { return reply }
            throw CommandError(.notConnected, "\(profile.family.rawValue) \(id) is \(state.rawValue)")
        }
        return try await profile.execute(command, name: name, on: device)
    }
}
