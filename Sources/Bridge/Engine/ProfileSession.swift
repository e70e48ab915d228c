import BlueZ

/// The one session engine: runs a device of any family its `FamilyProfile` declares. The lifecycle is
/// `LinkedSession`'s; this adds what every family did by hand before: it prepares and connects, runs the profile's
/// handshake, reads and subscribes the profile's streams inside the connection's scope, gives each value to its
/// reducer on the thread that received it (the lane), and publishes by leaf through the one path. When the link ends,
/// the scope's tasks have ended before the state goes back to how a connection starts: there is no teardown list.
actor ProfileSession<Profile: FamilyProfile>: LinkedSession, CommandedSession {
    let profile: Profile
    nonisolated let core: SessionCore
    var state = ConnectionState.disconnected
    private let lane: TelemetryLane<EngineState<Profile.StreamState>>
    private let device: ConnectedDevice<Profile.StreamState>

    init(device: BlueZDevice, context: SessionContext, profile: Profile) {
        self.profile = profile
        core = SessionCore(
            device: device, context: context, family: Profile.family, reportsSignal: profile.reportsSignal)
        lane = TelemetryLane(
            core: core,
            state: EngineState(
                stream: profile.initialStreamState,
                retained: RetainedLeaves(Profile.family, id: core.id, topics: core.topics)))
        self.device = ConnectedDevice(core: core, lane: lane)
    }

    // MARK: Lifecycle

    func connectAndSetUp() async throws {
        setState(.connecting)
        try await profile.prepare(device)
        try await core.link.connect(timeout: profile.connectTimeout)
        setState(.handshake)
        if profile.subscribesBeforeHandshake {
            for stream in profile.streams { try await subscribe(stream) }
        }
        switch try await profile.handshake(device) {
        case .silent(let reason):
            setState(.connected)
            core.logger.warning("connected without streams: \(reason)")
        case .streaming:
            if !profile.subscribesBeforeHandshake {
                for stream in profile.streams { try await subscribe(stream) }
            }
            lane.goLive()
            profile.streamsAreLive(device)
            setState(.connected)
            await profile.connected(device)
            for timer in profile.timers {
                core.connection.repeating(timer.key, every: timer.interval) { [device] in await timer.action(device) }
            }
        }
    }

    /// The link ended and every task of it has: the streams' state starts over, the live leaves are forgotten.
    func tearDown() async {
        let (initial, liveLeaves, profile, core) = (profile.initialStreamState, core.liveStateLeaves, profile, core)
        lane.publish { state in state.publications(profile.linkEnded(&state.stream), topics: core) }
        lane.stop { state in
            state.stream = initial
            state.retained.forget(liveLeaves)
        }
        setState(.disconnected)
    }

    // MARK: Streams

    private func subscribe(_ stream: ProfileStream<Profile.StreamState>) async throws {
        if stream.readFirst, let bytes = try? await core.link.read(stream.characteristic, in: stream.service) {
            received(bytes, on: stream)
        }
        let values: AsyncStream<[UInt8]>
        do {
            values = try await core.link.notifications(
                of: stream.characteristic, in: stream.service,
                lane: lane.lane(for: stream.characteristic) {
                    state, bytes in
                    state.publications(try stream.reduce(&state.stream, bytes), topics: self.core)
                })
        } catch  where stream.isOptional {
            core.logger.debug("optional stream \(stream.characteristic) not subscribed: \(error)")
            return
        }
        // What the lane did not take (before the handshake ended) comes here, in order.
        core.connection.stream(stream.characteristic, values) { [weak self] bytes in
            await self?.received(bytes, on: stream)
        }
    }

    /// A value the lane did not take, or one read: through the same reducer, counted and logged when malformed.
    private func received(_ bytes: [UInt8], on stream: ProfileStream<Profile.StreamState>) {
        core.countNotification()
        let core = core
        let reduced = lane.withState { state in
            Result { state.publications(try stream.reduce(&state.stream, bytes), topics: core) }
        }
        switch reduced {
        case .success(let publications): core.publish(publications)
        case .failure(let error): core.countMalformed(bytes, from: stream.characteristic, error)
        }
    }

    // MARK: Commands

    func execute(_ command: Profile.Command, name: String) async throws(CommandError) -> [String: JSONValue] {
        guard state == .connected else {
            throw CommandError(.notConnected, "\(Profile.family.rawValue) \(id) is \(state.rawValue)")
        }
        return try await profile.execute(command, name: name, on: device)
    }
}
