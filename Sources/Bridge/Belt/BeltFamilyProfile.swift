import Peripherals

/// The feelSpace naviBelt for the session engine: the handshake of belt.md §2.5, keep-alives answered, telemetry,
/// navigation (which outlives the link, in the driver's store) and commands one at a time. Its streams are subscribed
/// by the handshake's steps; every one but the orientation is the belt's word (`isControl`): it may answer a write,
/// change the mode navigation follows, or announce standby.
struct BeltFamilyProfile: FamilyProfile {
    typealias Command = BeltBridgeCommand
    let family = DeviceFamily.belt
    let navigations: BeltNavigationStore

    struct StreamState: Sendable {
        var telemetry = BeltTelemetry()
        var handshake = BeltHandshakeProgress()
        /// The mode has just turned to standby: the belt is switching off (`react` takes it).
        var enteredStandby = false

        mutating func take(_ notification: BeltNotification) -> [LeafOutput] {
            handshake.record(notification)
            let wasStandby = telemetry.mode == .standby
            let outputs = telemetry.outputs(for: notification)
            if telemetry.mode == .standby, !wasStandby { enteredStandby = true }
            return outputs
        }
    }

    var initialStreamState: StreamState { StreamState() }

    /// Navigation is the bridge's state, not the link's: it starts from what the driver kept or heard.
    func initialMemory(for id: String) -> BeltNavigation { navigations.take(id) }

    func linkEnded(remembering navigation: inout BeltNavigation, for id: String) {
        navigation.disconnected()
        navigations.keep(navigation, for: id)
    }

    var streams: [ProfileStream<StreamState>] {
        let c = BeltGATT.Characteristic.self
        let control = [c.keepAlive, c.parameterNotification, c.buttonPress, c.batteryStatus].map { uuid in
            ProfileStream<StreamState>(
                characteristic: uuid, service: Self.service(of: uuid), atStart: false, isControl: true
            ) { state, bytes in state.take(try BeltNotification.decode(characteristic: uuid, bytes: bytes)) }
        }
        let orientation = ProfileStream<StreamState>(
            characteristic: c.orientation, service: Self.service(of: c.orientation), atStart: false
        ) { _, bytes in
            guard
                case .orientation(let value) = try BeltNotification.decode(characteristic: c.orientation, bytes: bytes)
            else { return nil }
            return BeltTelemetry.orientation(value)
        }
        return control + [orientation]
    }

    static func service(of characteristic: String) -> String? {
        BeltGATT.characteristic(characteristic)?.service
    }

    // MARK: Handshake

    func handshake(_ device: ConnectedDevice<Self>) async throws -> HandshakeOutcome {
        for step in BeltHandshake.steps { try await perform(step, on: device) }
        let progress = device.withStreamState { $0.handshake }
        guard progress.isComplete else {
            throw CommandError(.timeout, "handshake incomplete, missing \(progress.missing.joined(separator: ", "))")
        }
        return .streaming
    }

    private func perform(_ step: BeltHandshakeStep, on device: ConnectedDevice<Self>) async throws {
        let uuid = step.characteristicUUID
        switch step {
        case .subscribe:
            try await device.subscribe(uuid)
        case .request(let command, let prefix):
            // Heading offset and accuracy state are optional (iOS tolerates their failure); the rest is checked by
            // the handshake's completeness.
            if try await write(command, expecting: prefix, on: device) == false {
                device.logger.warning("no answer to \(command) during handshake")
            }
        case .readFirmware:
            take(try await device.read(uuid, in: Self.service(of: uuid)), from: uuid, on: device)
        case .readBattery:
            do {
                take(try await device.read(uuid, in: Self.service(of: uuid)), from: uuid, on: device)
            } catch {
                device.logger.warning("battery not readable during handshake: \(error)")
            }
        }
    }

    /// A value read, taken as the belt's notification would be.
    private func take(_ bytes: [UInt8], from uuid: String, on device: ConnectedDevice<Self>) {
        guard
            let notification = device.decode(
                bytes, from: uuid, { try BeltNotification.decode(characteristic: uuid, bytes: $0) })
        else { return }
        device.update { $0.take(notification) }
    }

    func connected(_ device: ConnectedDevice<Self>) async {
        let firmware = device.withStreamState { $0.handshake.firmware }
        if let mode = device.withStreamState({ $0.handshake.mode }) {
            perform(device.withMemory { $0.connected(mode: mode, now: .now) }, on: device)
        }
        // Said at every connect: another gateway may have said otherwise while this one was away.
        device.restate("navigation", device.withMemory { $0.state.rawValue })
        publishSignal(device)
        device.describe(firmware.map { ["firmware": .number(Double($0.version))] } ?? [:])
        device.logger.info("belt connected", metadata: ["firmware": "\(firmware?.version ?? 0)"])
        // Switched off during the handshake: `react` leaves what comes before the session is connected alone, so a
        // standby then would end as a lost link a few seconds later. It ends here as it does once connected.
        if device.withStreamState({ $0.telemetry.mode }) == .standby { powerOff(device) }
    }

    // MARK: The belt's word

    func react(to bytes: [UInt8], from characteristic: String, on device: ConnectedDevice<Self>) {
        guard let notification = try? BeltNotification.decode(characteristic: characteristic, bytes: bytes) else {
            return
        }
        if case .keepAlive = notification { acknowledgeKeepAlive(device) }
        let enteredStandby = device.withStreamState { state in
            defer { state.enteredStandby = false }
            return state.enteredStandby
        }
        guard device.isConnected else { return }
        switch notification {
        case .keepAlive(let mode), .parameter(.mode(let mode)):
            perform(device.withMemory { $0.modeChanged(to: mode, now: .now) }, on: device)
        case .button(let event):
            perform(device.withMemory { $0.button(event, now: .now) }, on: device)
        default:
            break
        }
        if enteredStandby { powerOff(device) }
    }

    /// Every client answers a keep-alive at once (belt.md §3.5); the write must not wait behind the stream.
    private func acknowledgeKeepAlive(_ device: ConnectedDevice<Self>) {
        device.spawn { [self] device in
            do {
                _ = try await write(.keepAliveAck, expecting: nil, on: device)
            } catch {
                device.logger.warning("keep-alive not acknowledged: \(error)")
            }
        }
    }

    /// Standby means the belt is switching off and drops the link itself (belt.md §4.2); end the connection cleanly
    /// instead of waiting for the link to time out, as pybelt and Android do.
    private func powerOff(_ device: ConnectedDevice<Self>) {
        device.logger.info("belt switched off (standby)")
        device.publish([.value("event", "power_off", qos: 1)])
        device.endLink()
    }

    // MARK: Navigation

    /// Carries out what navigation decided: state and events go to the broker, a coalesced update is flushed later,
    /// and the writes are returned for the caller to send.
    private func apply(_ actions: [NavigationAction], on device: ConnectedDevice<Self>) -> [BeltCommand] {
        var writes: [BeltCommand] = []
        var outputs: [LeafOutput] = []
        for action in actions {
            switch action {
            case .send(let command):
                writes.append(command)
            case .publishState(let navigationState):
                outputs.append(.state("navigation", navigationState.rawValue))
            case .publishEvent(let event):
                outputs.append(.value("event", event, qos: 1))
            case .flushAfter(let delay):
                device.spawn(Self.navigationFlush) { [self] device in
                    try? await Task.sleep(for: delay)
                    guard !Task.isCancelled else { return }
                    perform(device.withMemory { $0.flush(now: .now) }, on: device)
                }
            }
        }
        device.publish(outputs)
        publishSignal(device)
        return writes
    }

    /// The key of the coalesced navigation update's timer: a newer update replaces it.
    private static let navigationFlush = "navigation-flush"

    /// `belt/<id>/navigation_signal`, retained, whenever the signal changes: with `navigation`, what the next gateway
    /// to serve the belt takes over (NavigationIntent).
    private func publishSignal(_ device: ConnectedDevice<Self>) {
        device.state("navigation_signal", NavigationIntent.payload(device.withMemory { $0.signal }))
    }

    /// For what the belt or a timer caused: the writes go out beside the caller, in the connection's scope.
    private func perform(_ actions: [NavigationAction], on device: ConnectedDevice<Self>) {
        let writes = apply(actions, on: device)
        guard !writes.isEmpty else { return }
        device.spawn { [self] device in
            for command in writes {
                do {
                    _ = try await write(command, expecting: nil, on: device)
                } catch {
                    device.logger.warning("navigation write failed: \(error)")
                }
            }
        }
    }

    /// For a command: its reply waits for the writes, in order, and a failed write fails the command.
    private func performAndWrite(_ actions: [NavigationAction], on device: ConnectedDevice<Self>) async throws {
        for command in apply(actions, on: device) { _ = try await write(command, expecting: nil, on: device) }
    }

    // MARK: Commands

    /// Navigation is taken while the belt is away (`"applied":false`) and applied when it connects.
    func executeWhileAway(_ command: BeltBridgeCommand, name: String, on device: ConnectedDevice<Self>)
        throws(CommandError) -> [String: JSONValue]?
    {
        guard case .navigation(let request) = command else { return nil }
        let actions = try device.withMemory {
            (navigation: inout BeltNavigation) throws(CommandError) in try navigation.handle(request, now: .now)
        }
        perform(actions, on: device)
        return ["applied": .bool(false)]
    }

    func execute(_ command: BeltBridgeCommand, name: String, on device: ConnectedDevice<Self>)
        async throws(CommandError) -> [String: JSONValue]
    {
        do {
            switch command {
            case .write(let write):
                try checkFirmware(for: write, on: device)
                // Confirmed commands succeed when the belt says so; state topics follow from its notification.
                if let prefix = write.acknowledgementPrefix {
                    guard try await self.write(write, expecting: prefix, on: device) else {
                        throw CommandError(.timeout, "the belt did not confirm '\(name)'")
                    }
                } else {
                    _ = try await self.write(write, expecting: nil, on: device)
                }
            case .vibration(let vibration, let switchToApp):
                try checkFirmware(for: vibration, on: device)
                try await ensureAppMode(for: vibration, switching: switchToApp, on: device)
                _ = try await self.write(vibration, expecting: nil, on: device)
            case .orientation(let enabled, let periodMs):
                try await changeOrientationNotifications(enabled: enabled, periodMs: periodMs, on: device)
            case .navigation(let request):
                let actions = try device.withMemory {
                    (navigation: inout BeltNavigation) throws(CommandError) in try navigation.handle(request, now: .now)
                }
                try await performAndWrite(actions, on: device)
            case .notify(let kind):
                let actions = try device.withMemory {
                    (navigation: inout BeltNavigation) throws(CommandError) in try navigation.notify(kind)
                }
                try await performAndWrite(actions, on: device)
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.gattError, "\(error)")
        }
        return [:]
    }

    /// Outside app mode the belt ignores most vibrations (`playsOutsideAppMode`): never answer `ok` for one it will
    /// not play. With `switching`, the belt is put in app mode first (as pybelt's `switch_to_app_mode`), unless a
    /// paused navigation holds it in pause: resuming is navigation's to do.
    private func ensureAppMode(for vibration: BeltCommand, switching: Bool, on device: ConnectedDevice<Self>)
        async throws
    {
        // The mode the belt last told: its notifications, else its answer during the handshake (a fresh link may not
        // have notified one yet). Unknown, a switch asked for is made rather than skipped.
        let known = device.withStreamState { $0.telemetry.mode ?? $0.handshake.mode }
        guard known != .app, !vibration.playsOutsideAppMode else { return }
        let paused = device.withMemory { $0.state == .paused }
        guard switching, !paused else {
            guard let mode = known else { return }
            let hint = paused ? "navigation is paused: resume it" : "set mode app first, or add \"switch_to_app\":true"
            throw CommandError(
                .wrongMode, "the belt is in \(mode.name) mode and plays this vibration only in app mode; \(hint)")
        }
        let change = BeltCommand.changeMode(.app)
        guard try await write(change, expecting: change.acknowledgementPrefix, on: device) else {
            throw CommandError(.timeout, "the belt did not confirm app mode")
        }
    }

    private func checkFirmware(for command: BeltCommand, on device: ConnectedDevice<Self>) throws(CommandError) {
        guard let minimum = command.minimumFirmware,
            let firmware = device.withStreamState({ $0.handshake.firmware?.version }), firmware < minimum
        else { return }
        throw CommandError(.unsupportedFirmware, "needs firmware \(minimum) or later; this belt has \(firmware)")
    }

    /// Orientation notifications are the FE0C subscription; the period is parameter 0x0F, written with notifications
    /// off and turned back on after the belt's answer, as pybelt does.
    private func changeOrientationNotifications(enabled: Bool?, periodMs: Int?, on device: ConnectedDevice<Self>)
        async throws
    {
        let uuid = BeltGATT.Characteristic.orientation
        let wanted = enabled ?? device.isSubscribed(uuid)
        if let periodMs {
            let command = BeltCommand.setOrientationPeriod(milliseconds: periodMs)
            try checkFirmware(for: command, on: device)
            if device.isSubscribed(uuid) { try await device.unsubscribe(uuid, in: Self.service(of: uuid)) }
            guard try await write(command, expecting: command.acknowledgementPrefix, on: device) else {
                throw CommandError(.timeout, "the belt did not confirm the orientation period")
            }
        }
        if wanted, !device.isSubscribed(uuid) {
            try await device.subscribe(uuid)
        } else if !wanted, device.isSubscribed(uuid) {
            try await device.unsubscribe(uuid, in: Self.service(of: uuid))
        }
    }

    /// Writes `command`; with `prefix`, waits up to 1 s (pybelt's timeout; longer on a slow link) for the belt's answer
    /// starting with it and returns whether it came.
    private func write(_ command: BeltCommand, expecting prefix: [UInt8]?, on device: ConnectedDevice<Self>)
        async throws -> Bool
    {
        let uuid = command.characteristicUUID
        let service = Self.service(of: uuid)
        let bytes = command.encoded()
        guard let prefix else {
            try await device.write(bytes, to: uuid, in: service)
            return true
        }
        return try await device.request(
            { try await device.write(bytes, to: uuid, in: service) }, awaiting: { $0.bytes.starts(with: prefix) },
            timeout: .seconds(BeltHandshake.answerTimeoutSeconds))
    }
}
