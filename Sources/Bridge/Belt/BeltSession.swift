import BlueZ
import Logging
import Peripherals

/// One belt, from connection to disconnection and back: connects, runs the handshake of
/// belt.md §2.5, acknowledges keep-alives, publishes telemetry and executes commands one at a time.
actor BeltSession: LinkedSession, CommandedSession, AwaitsAnswers {
    private var telemetry: BeltTelemetry
    nonisolated let core: SessionCore
    var state = ConnectionState.disconnected
    /// Headings, on the thread that received them once connected.
    private let orientationLane: TelemetryLane<BeltOrientationTopics>
    var answers = AnswerWaiters<[UInt8]>()  // FE06 notifications, encoded
    private var handshake = BeltHandshakeProgress()
    /// Navigation outlives the link: it is restored when the belt comes back. It outlives the session too,
    /// in the driver's store.
    private var navigation: BeltNavigation
    private let navigations: BeltNavigationStore
    /// The last `navigation_signal` published, so that it goes out only when the signal changes.
    private var publishedSignal: String?

    init(device: BlueZDevice, context: SessionContext, navigations: BeltNavigationStore) {
        core = SessionCore(device: device, context: context, family: .belt)
        telemetry = BeltTelemetry(id: context.id, topics: context.publisher.topics)
        orientationLane = TelemetryLane(core: core, state: telemetry.orientationTopics)
        self.navigations = navigations
        navigation = navigations.take(context.id)
    }

    // MARK: Lifecycle

    func tearDown() async {
        orientationLane.stop()
        answers.cancelAll()
        telemetry.reset()
        handshake = BeltHandshakeProgress()
        navigation.disconnected()
        navigations.keep(navigation, for: id)
        setState(.disconnected)
    }

    func connectAndSetUp() async throws {
        setState(.connecting)
        try await core.link.connect()
        setState(.handshake)
        for step in BeltHandshake.steps { try await perform(step) }
        guard handshake.isComplete else {
            throw CommandError(.timeout, "handshake incomplete, missing \(handshake.missing.joined(separator: ", "))")
        }
        setState(.connected)
        orientationLane.goLive()
        if let mode = handshake.mode { perform(navigation.connected(mode: mode, now: .now)) }
        core.publish([.state(core.topic("navigation"), navigation.state.rawValue)])
        publishSignalIfChanged()
        core.publish(telemetry.info(core.infoMembers, firmware: handshake.firmware))
        core.logger.info("belt connected", metadata: ["firmware": "\(handshake.firmware?.version ?? 0)"])
    }

    private func perform(_ step: BeltHandshakeStep) async throws {
        let uuid = step.characteristicUUID
        switch step {
        case .subscribe:
            try await subscribe(uuid)
        case .request(let command, let prefix):
            // Heading offset and accuracy state are optional (iOS tolerates their failure); the rest is
            // checked by the handshake's completeness below.
            if try await write(command, expecting: prefix) == false {
                core.logger.warning("no answer to \(command) during handshake")
            }
        case .readFirmware:
            received(try await core.link.read(uuid, in: Self.service(of: uuid)), from: uuid)
        case .readBattery:
            do {
                received(try await core.link.read(uuid, in: Self.service(of: uuid)), from: uuid)
            } catch {
                core.logger.warning("battery not readable during handshake: \(error)")
            }
        }
    }

    private static func service(of characteristic: String) -> String? {
        BeltGATT.characteristic(characteristic)?.service
    }

    private var orientationSubscribed: Bool { core.connection.isRunning(BeltGATT.Characteristic.orientation) }

    private func subscribe(_ uuid: String) async throws {
        let stream = try await core.link.notifications(of: uuid, in: Self.service(of: uuid), lane: lane(for: uuid))
        core.connection.stream(uuid, stream) { [weak self] bytes in await self?.received(bytes, from: uuid) }
    }

    /// The orientation (FE0C) is the belt's stream: its values take the lane; every other notification
    /// may answer a write, or change the mode navigation follows, and goes to the session.
    private nonisolated func lane(for uuid: String) -> NotificationLane? {
        guard uuid == BeltGATT.Characteristic.orientation else { return nil }
        return orientationLane.lane(for: uuid) { topics, bytes in
            guard case .orientation(let value) = try BeltNotification.decode(characteristic: uuid, bytes: bytes) else {
                return nil
            }
            return topics.publications(for: value)
        }
    }

    /// The stream's task ends with the stream, after publishing what the belt sent before the stop.
    private func unsubscribe(_ uuid: String) async throws {
        let task = core.connection.release(uuid)
        try await core.link.stopNotifications(of: uuid, in: Self.service(of: uuid))
        await task?.value
    }

    // MARK: Notifications

    private func received(_ bytes: [UInt8], from uuid: String) {
        guard
            let notification = core.decode(
                bytes, from: uuid, { try BeltNotification.decode(characteristic: uuid, bytes: $0) })
        else { return }
        handshake.record(notification)
        answers.deliver(notification.encoded())
        if case .keepAlive = notification { acknowledgeKeepAlive() }
        if state == .connected {
            switch notification {
            case .keepAlive(let mode), .parameter(.mode(let mode)): perform(navigation.modeChanged(to: mode, now: .now))
            case .button(let event): perform(navigation.button(event, now: .now))
            default: break
            }
        }
        let wasStandby = telemetry.mode == .standby
        core.publish(telemetry.publications(for: notification))
        if telemetry.mode == .standby, !wasStandby, state == .connected { powerOff() }
    }

    /// Standby means the belt is switching off and drops the link itself (belt.md §4.2); end the
    /// connection cleanly instead of waiting for the link to time out, as pybelt and Android do.
    private func powerOff() {
        core.logger.info("belt switched off (standby)")
        core.publish([Publication(topic: core.topic("event"), payload: "power_off", qos: 1)])
        core.loss.expectEnding()
        core.connection.spawn { [core] in
            await core.link.disconnect()
            core.loss.signal(.ended)
        }
    }

    /// Every client answers a keep-alive at once (belt.md §3.5); the write must not wait behind the caller.
    private func acknowledgeKeepAlive() {
        core.connection.spawn { [self] in
            do {
                _ = try await write(.keepAliveAck, expecting: nil)
            } catch {
                core.logger.warning("keep-alive not acknowledged: \(error)")
            }
        }
    }

    // MARK: Commands

    /// Navigation is taken while the belt is away (`"applied":false`) and applied when it connects.
    func execute(_ command: BeltBridgeCommand, name: String) async throws(CommandError) -> [String: JSONValue] {
        if state != .connected, case .navigation(let request) = command {
            perform(try navigation.handle(request, now: .now))
            return ["applied": .bool(false)]
        }
        try await executeConnected(command, name: name)
        return [:]
    }

    private func executeConnected(_ command: BeltBridgeCommand, name: String) async throws(CommandError) {
        guard state == .connected else { throw CommandError(.notConnected, "belt \(id) is \(state.rawValue)") }
        do {
            switch command {
            case .write(let write):
                try checkFirmware(for: write)
                // Confirmed commands succeed when the belt says so; state topics follow from its notification.
                if let prefix = write.acknowledgementPrefix {
                    guard try await self.write(write, expecting: prefix) else {
                        throw CommandError(.timeout, "the belt did not confirm '\(name)'")
                    }
                } else {
                    _ = try await self.write(write, expecting: nil)
                }
            case .vibration(let vibration, let switchToApp):
                try checkFirmware(for: vibration)
                try await ensureAppMode(for: vibration, switching: switchToApp)
                _ = try await self.write(vibration, expecting: nil)
            case .orientation(let enabled, let periodMs):
                try await changeOrientationNotifications(enabled: enabled, periodMs: periodMs)
            case .navigation(let request):
                try await performAndWrite(try navigation.handle(request, now: .now))
            case .notify(let kind):
                try await performAndWrite(try navigation.notify(kind))
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.gattError, "\(error)")
        }
    }

    /// Carries out what navigation decided: state and events go to the broker, a coalesced update is
    /// flushed later, and the writes are returned for the caller to send.
    private func apply(_ actions: [NavigationAction]) -> [BeltCommand] {
        var writes: [BeltCommand] = []
        for action in actions {
            switch action {
            case .send(let command):
                writes.append(command)
            case .publishState(let navigationState):
                core.publish([.state(core.topic("navigation"), navigationState.rawValue)])
            case .publishEvent(let event):
                core.publish([Publication(topic: core.topic("event"), payload: event, qos: 1)])
            case .flushAfter(let delay):
                core.connection.spawn(Self.navigationFlush) { [weak self] in
                    try? await Task.sleep(for: delay)
                    guard !Task.isCancelled else { return }
                    await self?.flushNavigation()
                }
            }
        }
        publishSignalIfChanged()
        return writes
    }

    /// The key of the coalesced navigation update's timer: a newer update replaces it.
    private static let navigationFlush = "navigation-flush"

    private func flushNavigation() { perform(navigation.flush(now: .now)) }

    /// `belt/<id>/navigation_signal`, retained, whenever the signal changes: with `navigation`, what the
    /// next gateway to serve the belt takes over (NavigationIntent).
    private func publishSignalIfChanged() {
        let signal = NavigationIntent.payload(navigation.signal)
        guard signal != publishedSignal else { return }
        publishedSignal = signal
        core.publish([.state(core.topic("navigation_signal"), signal)])
    }

    /// For a command: its reply waits for the writes (in order, behind any command already queued for
    /// the belt), and a failed write fails the command.
    private func performAndWrite(_ actions: [NavigationAction]) async throws {
        for command in apply(actions) { _ = try await write(command, expecting: nil) }
    }

    /// For what the belt or a timer caused: the writes go out beside the caller, owned by the link.
    private func perform(_ actions: [NavigationAction]) {
        let writes = apply(actions)
        guard !writes.isEmpty else { return }
        core.connection.spawn { [self] in
            for command in writes {
                do {
                    _ = try await write(command, expecting: nil)
                } catch {
                    core.logger.warning("navigation write failed: \(error)")
                }
            }
        }
    }

    /// Outside app mode the belt ignores most vibrations (`playsOutsideAppMode`): never answer `ok` for one
    /// it will not play. With `switching`, the belt is put in app mode first (as pybelt's `switch_to_app_mode`),
    /// unless a paused navigation holds it in pause: resuming is navigation's to do.
    private func ensureAppMode(for vibration: BeltCommand, switching: Bool) async throws {
        // The mode the belt last told: its notifications, else its answer during the handshake (a fresh link
        // may not have notified one yet). Unknown, a switch asked for is made rather than skipped.
        let known = telemetry.mode ?? handshake.mode
        guard known != .app, !vibration.playsOutsideAppMode else { return }
        guard switching, navigation.state != .paused else {
            guard let mode = known else { return }
            let hint =
                navigation.state == .paused
                ? "navigation is paused: resume it" : "set mode app first, or add \"switch_to_app\":true"
            throw CommandError(
                .wrongMode, "the belt is in \(mode.name) mode and plays this vibration only in app mode; \(hint)")
        }
        let change = BeltCommand.changeMode(.app)
        guard try await write(change, expecting: change.acknowledgementPrefix) else {
            throw CommandError(.timeout, "the belt did not confirm app mode")
        }
    }

    private func checkFirmware(for command: BeltCommand) throws(CommandError) {
        guard let minimum = command.minimumFirmware, let firmware = handshake.firmware?.version, firmware < minimum
        else { return }
        throw CommandError(.unsupportedFirmware, "needs firmware \(minimum) or later; this belt has \(firmware)")
    }

    /// Orientation notifications are the FE0C subscription; the period is parameter 0x0F, written with
    /// notifications off and turned back on after the belt's answer, as pybelt does.
    private func changeOrientationNotifications(enabled: Bool?, periodMs: Int?) async throws {
        let uuid = BeltGATT.Characteristic.orientation
        let wanted = enabled ?? orientationSubscribed
        if let periodMs {
            let command = BeltCommand.setOrientationPeriod(milliseconds: periodMs)
            try checkFirmware(for: command)
            if orientationSubscribed { try await unsubscribe(uuid) }
            guard try await write(command, expecting: command.acknowledgementPrefix) else {
                throw CommandError(.timeout, "the belt did not confirm the orientation period")
            }
        }
        if wanted, !orientationSubscribed {
            try await subscribe(uuid)
        } else if !wanted, orientationSubscribed {
            try await unsubscribe(uuid)
        }
    }

    /// Writes `command`; with `prefix`, waits up to 1 s (pybelt's timeout) for the FE06 answer
    /// starting with it and returns whether it came.
    private func write(_ command: BeltCommand, expecting prefix: [UInt8]?) async throws -> Bool {
        let uuid = command.characteristicUUID
        let service = Self.service(of: uuid)
        let bytes = command.encoded()
        guard let prefix else {
            try await core.link.write(bytes, to: uuid, in: service)
            return true
        }
        return try await send(
            { [core] in try await core.link.write(bytes, to: uuid, in: service) },
            awaiting: { $0.starts(with: prefix) }, timeout: .seconds(BeltHandshake.answerTimeoutSeconds))
    }
}

extension [UInt8] {
    /// Lower-case hex without separators, for logs.
    var hex: String { map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
}
