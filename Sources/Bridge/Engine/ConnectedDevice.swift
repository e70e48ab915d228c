import BlueZ
import Locks
import Logging

/// A device as its profile sees it during a connection: read, write, bond, subscribe, wait for an answer, repeat
/// work, and publish by leaf. Every publication goes through the engine's one path (`SessionCore.publish`, with the
/// live-state ledger) and, for state, through the leaves' record under the lane's lock, so that a reducer, a
/// handshake and a command never say the same state twice. Every task it starts lives in the connection's scope.
final class ConnectedDevice<Profile: FamilyProfile>: Sendable {
    /// A value no stream took, as the answer waiters see it.
    typealias Heard = (characteristic: String, bytes: [UInt8])

    let profile: Profile
    let core: SessionCore
    let lane: TelemetryLane<EngineState<Profile>>
    private let answers = Mutex(AnswerWaiters<Heard>())

    init(profile: Profile, core: SessionCore) {
        self.profile = profile
        self.core = core
        lane = TelemetryLane(
            core: core,
            state: EngineState(
                stream: profile.initialStreamState, memory: profile.initialMemory(for: core.id),
                retained: RetainedLeaves(profile.family, id: core.id, topics: core.topics)))
    }

    var id: String { core.id }
    var logger: Logger { core.logger }

    // MARK: The link

    func read(_ characteristic: String, in service: String? = nil) async throws -> [UInt8] {
        try await core.link.read(characteristic, in: service)
    }

    /// Writes `bytes`; a failure is the command's `gatt_error`.
    func write(_ bytes: [UInt8], to characteristic: String, in service: String? = nil, type: GattWriteType = .request)
        async throws(CommandError)
    {
        do {
            try await core.link.write(bytes, to: characteristic, in: service, type: type)
        } catch {
            throw CommandError(.gattError, "\(error)")
        }
    }

    /// The characteristics the device exports (after service discovery).
    func characteristics() async -> Set<String> { Set(await core.link.characteristicUUIDs()) }

    func serviceUUIDs() async -> Set<String> { await core.link.serviceUUIDs() }

    var isPaired: Bool { get async { await core.link.current()?.paired ?? false } }

    func pairAndTrust() async throws { try await core.link.pairAndTrust() }

    /// The device as BlueZ reports it now (its RSSI from the last advertisement, its advertised TX power).
    func current() async -> BlueZDevice? { await core.link.current() }

    /// The battery level bluetoothd's battery plugin keeps (`Battery1`), where it claims the Battery Service.
    func batteryPercentage() async -> UInt8? { await core.link.batteryPercentage() }

    /// Ends the link on purpose (a device told to switch itself off): not a loss, and not reconnected.
    func endLink() {
        core.loss.expectEnding()
        core.connection.spawn { [core] in
            await core.link.disconnect()
            core.loss.signal(.ended)
        }
    }

    // MARK: Streams

    /// Subscribes the profile's stream on `characteristic`, once: its values go to its reducer on the receiving
    /// thread once live (the lane), to the same reducer here before. A stream the profile does not declare is a bug.
    func subscribe(_ characteristic: String) async throws {
        guard let stream = profile.streams.first(where: { $0.characteristic == characteristic }) else {
            preconditionFailure("\(profile.family.rawValue) declares no stream on \(characteristic)")
        }
        try await subscribe(stream)
    }

    func subscribe(_ stream: ProfileStream<Profile.StreamState>) async throws {
        guard !core.connection.isRunning(stream.characteristic) else { return }
        if stream.readFirst, let bytes = try? await core.link.read(stream.characteristic, in: stream.service) {
            received(bytes, on: stream)
        }
        let values: AsyncStream<[UInt8]>
        do {
            let core = core
            values = try await core.link.notifications(
                of: stream.characteristic, in: stream.service,
                lane: stream.isControl
                    ? nil
                    : lane.lane(
                        for: stream.characteristic,
                        { [profile] state, bytes in
                            guard let leaves = try stream.reduce(&state.stream, bytes) else {
                                profile.heard(bytes, from: stream.characteristic, in: &state.stream)
                                return nil
                            }
                            return state.publications(leaves, topics: core)
                        },
                        declined: { [weak self] bytes in self?.deliverAnswer(bytes, from: stream.characteristic) }))
        } catch  where stream.isOptional {
            core.logger.debug("optional stream \(stream.characteristic) not subscribed: \(error)")
            return
        }
        // What the lane did not take (answers; anything before the handshake ended) comes here, in order.
        core.connection.stream(stream.characteristic, values) { [weak self] bytes in self?.received(bytes, on: stream) }
    }

    /// Unsubscribes `characteristic`. The stream's task is not cancelled: it hands on what the device sent before
    /// the stop took effect, and ends with the stream, before this returns.
    func unsubscribe(_ characteristic: String, in service: String? = nil) async throws {
        guard let task = core.connection.release(characteristic) else { return }
        try await core.link.stopNotifications(of: characteristic, in: service)
        await task.value
    }

    /// A value the lane did not take (before the handshake ended, or a control stream's), or one read: through the
    /// stream's reducer, counted and logged when malformed;
    /// one that is not the stream's, or any of a control stream, goes to the profile's `heard` and then to the answer
    /// waiters; a control stream's to the profile's `react` last.
    private func received(_ bytes: [UInt8], on stream: ProfileStream<Profile.StreamState>) {
        core.countNotification()
        let (core, profile) = (core, profile)
        let reduced = lane.withState { state in
            Result { () throws -> [Publication]? in
                let leaves = try stream.reduce(&state.stream, bytes)
                if leaves == nil || stream.isControl {
                    profile.heard(bytes, from: stream.characteristic, in: &state.stream)
                }
                guard let leaves else { return nil }
                let made = state.publications(leaves, topics: core)
                // While connecting, what a value says waits with the handshake's state.
                guard state.held == nil else {
                    state.held? += made
                    return []
                }
                return made
            }
        }
        switch reduced {
        case .success(let publications):
            if let publications { core.publish(publications) }
            guard publications == nil || stream.isControl else { return }
            deliverAnswer(bytes, from: stream.characteristic)
            if stream.isControl { profile.react(to: bytes, from: stream.characteristic, on: self) }
        case .failure(let error): core.countMalformed(bytes, from: stream.characteristic, error)
        }
    }

    /// A value no stream published, to whoever waits for it (`request`).
    private func deliverAnswer(_ bytes: [UInt8], from characteristic: String) {
        answers.withLock { $0.deliver((characteristic, bytes)) }
    }

    /// Whether the profile's stream on `characteristic` is subscribed now.
    func isSubscribed(_ characteristic: String) -> Bool { core.connection.isRunning(characteristic) }

    // MARK: Answers

    /// Sends, then waits up to `timeout` (counted from before the send; stretched on a slow link, `slowLinkFactor`)
    /// for a value no stream took that `matches`; true when it came. A failed send throws.
    func request(
        _ send: @escaping @Sendable () async throws -> Void, awaiting matches: @escaping @Sendable (Heard) -> Bool,
        timeout: Duration
    ) async throws -> Bool {
        let outcome = FirstAnswer<AcknowledgementOutcome>()
        let key = answers.withLock { $0.register(matches, outcome) }
        defer { answers.withLock { $0.remove(key) } }
        return try await outcome.awaitAnswer(after: send, timeout: timeout * core.slowLinkFactor)
    }

    /// The link ended: nobody will answer.
    func cancelAnswers() { answers.withLock { $0.cancelAll() } }

    // MARK: Repeated work

    /// Runs `action` every `interval` under `key` while connected; a new one under the same key replaces it. Paced
    /// by a family's interval setting (`battery_s`, `FamilySettings.perDeviceIntervals`), it runs at the device's
    /// own interval where it has one (`devices.intervals`), and follows it when it changes.
    func repeating(
        _ key: String, every interval: Duration, pacedBy setting: String? = nil,
        _ action: @escaping @Sendable (ConnectedDevice) async -> Void
    ) {
        let scope = core.connection
        let start: @Sendable (Duration, Bool) -> Bool = { [weak self] interval, replacing in
            scope.repeating(key, every: interval, onlyReplacing: replacing) { [weak self] in
                guard let self else { return }
                await action(self)
            }
        }
        guard let setting else {
            _ = start(interval, false)
            return
        }
        core.intervals.pace(key, by: setting, standard: interval, start: start)
    }

    func cancelRepeating(_ key: String) { core.connection.cancel(key) }

    /// Runs `body` beside the caller in the connection's scope (a write that must not wait behind it); under `key`,
    /// in place of the work running under it.
    func spawn(_ key: String? = nil, _ body: @escaping @Sendable (ConnectedDevice) async -> Void) {
        core.connection.spawn(key) { [weak self] in
            guard let self else { return }
            await body(self)
        }
    }

    // MARK: Publishing and state

    func publish(_ outputs: [LeafOutput]) {
        emit { [core] in $0.publications(outputs, topics: core) }
    }

    /// Retained state on `leaf`, sent when it changed.
    func state(_ leaf: String, _ payload: String) { publish([.state(leaf, payload)]) }

    /// Retained state on `leaf`, sent even when this session said the same before: what a new link must say whatever
    /// other gateways said meanwhile (a belt's navigation).
    func restate(_ leaf: String, _ payload: String) {
        emit { [core] state in
            state.retained.forget([leaf])
            return state.publications([.state(leaf, payload)], topics: core)
        }
    }

    /// Whether the session is connected (its handshake done): what a profile does only then.
    var isConnected: Bool { lane.withState { $0.connected } }

    /// The device's retained `info`: what every device's holds (`SessionCore.infoMembers`) and `members`.
    func describe(_ members: [String: JSONValue]) {
        state("info", JSONValue.object(core.infoMembers.merging(members) { $1 }).text)
    }

    /// Changes the stream state and publishes what `body` says of it, under the lane's lock: a command's change and
    /// a stream's value never interleave.
    func update(_ body: (inout Profile.StreamState) -> [LeafOutput]) {
        emit { [core] state in state.publications(body(&state.stream), topics: core) }
    }

    /// The one way a profile's state reaches the broker: computed under the lane's lock, and held there while the
    /// session is connecting (`hold`).
    private func emit(_ body: (inout EngineState<Profile>) -> [Publication]) {
        let publications = lane.withState { state -> [Publication] in
            let made = body(&state)
            guard state.held == nil else {
                state.held? += made
                return []
            }
            return made
        }
        core.publish(publications)
    }

    /// From now on what the profile publishes waits for `release()`: a connecting session says what its handshake
    /// learnt only together with `connected`, so that no one acts on it (a command after `mode` says `ready`) while
    /// the session still refuses commands.
    func hold() { lane.withState { $0.held = $0.held ?? [] } }

    /// Publishes what was held, in order, and stops holding; `connected` when the session is about to say so.
    func release(connected: Bool = false) {
        core.publish(
            lane.withState { state in
                defer { state.held = nil }
                state.connected = connected
                return state.held ?? []
            })
    }

    /// Runs `body` on the stream state, under the lane's lock.
    func withStreamState<Result: Sendable>(_ body: (inout Profile.StreamState) -> Result) -> Result {
        lane.withState { body(&$0.stream) }
    }

    /// Runs `body` on the session's memory, under the lane's lock.
    func withMemory<Value: Sendable, Failure: Error>(_ body: (inout Profile.Memory) throws(Failure) -> Value)
        throws(Failure) -> Value
    {
        try lane.withState { state in Result { () throws(Failure) -> Value in try body(&state.memory) } }.get()
    }

    /// Decodes a value read (not notified): malformed bytes are counted and logged, and give nil.
    func decode<Value>(_ bytes: [UInt8], from characteristic: String, _ decoder: ([UInt8]) throws -> Value) -> Value? {
        core.decode(bytes, from: characteristic, decoder)
    }
}
