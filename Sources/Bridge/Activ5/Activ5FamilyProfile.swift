import Peripherals

/// The Activ5 for the session engine, legacy or new protocol: it detects which, runs the matching handshake
/// (activ5.md §4.5), streams force and IMU, and keeps the device awake when asked (§6). Its streams are subscribed
/// by the handshake's steps and by commands, not at start.
struct Activ5FamilyProfile: FamilyProfile {
    typealias Command = Activ5BridgeCommand
    let family = DeviceFamily.a5
    let options: Activ5Options
    /// What users asked for (the streams), which outlives a link: the driver's.
    let desired: DesiredStateStore

    /// Whether users keep the device awake (`evergreen`), from one connection to the next.
    struct Memory: Sendable {
        var evergreen = false
    }

    var reconnects: Bool { options.reconnect }
    var initialStreamState: Activ5Telemetry { Activ5Telemetry(thresholds: options.squeeze) }
    func initialMemory(for id: String) -> Memory { Memory() }

    /// Seconds on one clock for every device: the squeeze detector only takes differences.
    private static let origin = ContinuousClock.now
    private static var now: Double { (ContinuousClock.now - origin) / .seconds(1) }

    /// Every characteristic the device notifies on: force and IMU values are streams, the rest answers.
    var streams: [ProfileStream<Activ5Telemetry>] {
        let c = Activ5GATT.Characteristic.self
        return [c.legacyMessages, c.force, c.imu].map { uuid in
            let decode = Activ5Notification.decoder(characteristic: uuid)
            return ProfileStream(characteristic: uuid, atStart: false) { telemetry, bytes in
                telemetry.take(try decode(bytes), at: Self.now)
            }
        }
    }

    func heard(_ bytes: [UInt8], from characteristic: String, in telemetry: inout Activ5Telemetry) {
        if let notification = try? Activ5Notification.decode(characteristic: characteristic, bytes: bytes) {
            telemetry.progress.record(notification)
        }
    }

    // MARK: Handshake

    func handshake(_ device: ConnectedDevice<Self>) async throws -> HandshakeOutcome {
        let characteristics = Array(await device.characteristics())
        let wireProtocol = Activ5Protocol.detect(
            serviceUUIDs: Array(await device.serviceUUIDs()), characteristicUUIDs: characteristics)
        // Neither profile: not an Activ5 (a `connect` request may name the wrong family). The legacy handshake
        // needs no answer, so without this check any device would "connect".
        guard wireProtocol == .new || characteristics.contains(Activ5GATT.Characteristic.legacyCommands) else {
            throw CommandError(.invalidState, "the device has neither Activ5 profile (no F0FE, no 5A02)")
        }
        device.withStreamState {
            $0.wireProtocol = wireProtocol
            $0.progress = Activ5HandshakeProgress(wireProtocol: wireProtocol)
        }
        var steps = Activ5Handshake.steps(availableCharacteristics: characteristics)[...]
        while let step = steps.popFirst() {
            if case .subscribe(let uuid) = step, steps.first == .awaitInitialMessage {
                // The device sends TC5k as soon as 5A01 is subscribed, which may be before the subscription call
                // returns: the wait is registered before subscribing, so an early TC5k is not missed.
                steps.removeFirst()
                try await awaitInitialMessage(after: { try await device.subscribe(uuid) }, on: device)
            } else {
                try await perform(step, on: device)
            }
        }
        let exported = characteristics.contains(Activ5GATT.Characteristic.batteryLevel)
        let battery = wireProtocol == .new ? await readBatteryLevel(exported: exported, on: device) : nil
        let progress = device.withStreamState { $0.progress }
        guard progress.isComplete else {
            throw CommandError(.timeout, "handshake incomplete, missing \(progress.missing.joined(separator: ", "))")
        }
        device.publish(
            [.state("state", "stopped")]
                + Activ5Telemetry.battery(
                    level: battery ?? progress.batteryLevel, status: progress.status?.batteryStatus))
        device.describe(info(progress, wireProtocol))
        return .streaming
    }

    private func info(_ progress: Activ5HandshakeProgress, _ wireProtocol: Activ5Protocol) -> [String: JSONValue] {
        var members: [String: JSONValue] = ["protocol": .string(wireProtocol == .legacy ? "legacy" : "new")]
        if let firmware = progress.firmwareVersion { members["firmware"] = .string(firmware) }
        if let version = progress.protocolVersion { members["protocol_version"] = .string(version) }
        if let serial = progress.serialNumber { members["serial"] = .string(serial) }
        if let deviceID = progress.deviceID { members["device_id"] = .string(deviceID) }
        return members
    }

    /// Runs `trigger` (nothing, or the subscription that makes the device send it) and waits for `TC5k`. Web shows the
    /// device takes TVGTIME without it, so no answer is not fatal.
    private func awaitInitialMessage(
        after trigger: @escaping @Sendable () async throws -> Void, on device: ConnectedDevice<Self>
    ) async throws {
        let timeout = Duration.seconds(Activ5Handshake.answerTimeoutSeconds)
        if try await device.request(trigger, awaiting: Self.answers(to: .awaitInitialMessage), timeout: timeout)
            == false
        {
            device.logger.info("no TC5k within \(timeout)")
        }
    }

    /// Whether a value the device sent answers `step`.
    private static func answers(to step: Activ5HandshakeStep) -> @Sendable (ConnectedDevice<Self>.Heard) -> Bool {
        { heard in
            (try? Activ5Notification.decode(characteristic: heard.characteristic, bytes: heard.bytes))
                .map(step.isAnswered(by:)) ?? false
        }
    }

    private func perform(_ step: Activ5HandshakeStep, on device: ConnectedDevice<Self>) async throws {
        let timeout = Duration.seconds(Activ5Handshake.answerTimeoutSeconds)
        switch step {
        case .subscribe(let uuid):
            try await device.subscribe(uuid)
        case .read(let uuid):
            let bytes = try await device.read(uuid)
            if let notification = device.decode(
                bytes, from: uuid, { try Activ5Notification.decode(characteristic: uuid, bytes: $0) })
            {
                device.withStreamState { $0.progress.record(notification) }
            }
        case .awaitInitialMessage:
            try await awaitInitialMessage(after: {}, on: device)
        case .write(let command):
            try await write(command, on: device)
        case .request(let command):
            if try await device.request(
                { [self] in try await write(command, on: device) }, awaiting: Self.answers(to: step), timeout: timeout)
                == false
            {
                device.logger.info("no answer to \(command.legacyText ?? "")")
            }
        }
    }

    func connected(_ device: ConnectedDevice<Self>) async {
        let (wireProtocol, progress) = device.withStreamState { ($0.wireProtocol, $0.progress) }
        if device.withMemory({ $0.evergreen }) { keepAwake(device) }
        if wireProtocol == .new {
            // The legacy profile has no level to read (only TC5k's token): new-protocol devices only.
            let exported = await device.characteristics().contains(Activ5GATT.Characteristic.batteryLevel)
            device.repeating("battery", every: options.batteryInterval, pacedBy: Activ5Options.batterySetting) {
                device in
                guard let level = await readBatteryLevel(exported: exported, on: device) else { return }
                device.logger.debug("battery refreshed", metadata: ["level": "\(level)"])
                device.publish(Activ5Telemetry.battery(level: level, status: progress.status?.batteryStatus))
            }
        }
        await restoreDesired(device)
        device.logger.info(
            "Activ5 connected",
            metadata: ["protocol": "\(wireProtocol)", "firmware": "\(progress.firmwareVersion ?? "")"])
    }

    /// 2A19 when the stack exports it; else the level bluetoothd's battery plugin keeps (`Battery1`).
    private func readBatteryLevel(exported: Bool, on device: ConnectedDevice<Self>) async -> UInt8? {
        let uuid = Activ5GATT.Characteristic.batteryLevel
        guard exported else { return await device.batteryPercentage() }
        do {
            guard
                case .batteryLevel(let level) = try Activ5Notification.decode(
                    characteristic: uuid, bytes: try await device.read(uuid))
            else { return nil }
            return level
        } catch {
            device.logger.warning("battery level not read: \(error)")
            return nil
        }
    }

    // MARK: Commands

    private func write(_ command: Activ5Command, on device: ConnectedDevice<Self>) async throws {
        switch command {
        case .subscribe(let uuid): try await device.subscribe(uuid)
        case .unsubscribe(let uuid): try await device.unsubscribe(uuid)
        default: try await device.write(command.encoded(), to: command.characteristicUUID)
        }
    }

    func execute(_ command: Activ5BridgeCommand, name: String, on device: ConnectedDevice<Self>)
        async throws(CommandError) -> [String: JSONValue]
    {
        let wireProtocol = device.withStreamState { $0.wireProtocol }
        do {
            switch command {
            case .start, .stop:
                let on = command == .start
                try await write(on ? .startForce(wireProtocol) : .stopForce(wireProtocol), on: device)
                device.update { [$0.setStreaming(on)] }
                publishDesired(device)
            case .tare:
                if let deviceTare = Activ5Command.tare(wireProtocol) {
                    try await write(deviceTare, on: device)
                } else {
                    // No tare on the wire for new devices: subtract the mean of the last samples.
                    guard device.withStreamState({ $0.tareOnRecentSamples() }) else {
                        throw CommandError(.invalidState, "tare needs force samples: start streaming first")
                    }
                }
            case .imu(let enabled):
                guard wireProtocol == .new else {
                    throw CommandError(.invalidState, "legacy Activ5 devices have no IMU")
                }
                try await write(enabled ? Activ5Command.startIMU : Activ5Command.stopIMU, on: device)
                device.withStreamState { $0.imuOn = enabled }
                publishDesired(device)
            case .samplePeriod(let period):
                guard wireProtocol == .new else {
                    throw CommandError(.invalidState, "legacy Activ5 devices have a fixed rate")
                }
                try await write(.setSamplePeriod(period), on: device)
            case .evergreen(let enabled):
                device.withMemory { $0.evergreen = enabled }
                if enabled { keepAwake(device) } else { device.cancelRepeating(Self.evergreenKey) }
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.gattError, "\(error)")
        }
        return [:]
    }

    /// Starts again what users had started (`a5/<id>/desired`): after a lost link, a crash, or on a fleet's new
    /// owner. A failed start is logged, not fatal: the link is up and a command can try again.
    private func restoreDesired(_ device: ConnectedDevice<Self>) async {
        let wanted = desired.take(device.id)
        let wireProtocol = device.withStreamState { $0.wireProtocol }
        do {
            if wanted["imu"] == .bool(true), wireProtocol == .new {
                try await write(Activ5Command.startIMU, on: device)
                device.withStreamState { $0.imuOn = true }
            }
            if wanted["streaming"] == .bool(true) {
                try await write(Activ5Command.startForce(wireProtocol), on: device)
                device.update { [$0.setStreaming(true)] }
            }
        } catch {
            device.logger.warning("could not restart the streams users had started: \(error)")
        }
        publishDesired(device)
    }

    /// `a5/<id>/desired`, retained: the streams users started, for whichever gateway serves the device next.
    private func publishDesired(_ device: ConnectedDevice<Self>) {
        let (streaming, imuOn) = device.withStreamState { ($0.streaming, $0.imuOn) }
        desired.record(["streaming": .bool(streaming), "imu": .bool(imuOn)], core: device.core)
    }

    /// The device switches off after 7 minutes without a command while not streaming; the vendors' clients send
    /// `STOP!` every minute to keep it on (activ5.md §6). Only while not streaming, unlike iOS.
    private func keepAwake(_ device: ConnectedDevice<Self>) {
        device.repeating(Self.evergreenKey, every: options.keepAliveInterval, pacedBy: Activ5Options.keepAliveSetting) {
            device in
            guard !device.withStreamState({ $0.streaming }) else { return }
            do {
                try await device.write(
                    Activ5Command.keepAlive.encoded(), to: Activ5Command.keepAlive.characteristicUUID)
            } catch {
                device.logger.warning("keep-alive failed: \(error)")
            }
        }
    }

    private static let evergreenKey = "evergreen"
}
