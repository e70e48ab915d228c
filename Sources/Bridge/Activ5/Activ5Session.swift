import BlueZ
import Logging
import Peripherals

/// One Activ5, legacy or new protocol: detects which, runs the matching handshake (activ5.md §4.5),
/// streams force (tared, with the squeeze state machine of §7) and IMU, and keeps the device awake
/// when asked (§6).
actor Activ5Session: LinkedSession, CommandedSession, AwaitsAnswers {
    private let options: Activ5Options
    var answers = AnswerWaiters<Activ5Notification>()
    nonisolated let core: SessionCore
    var reconnects: Bool { options.reconnect }
    var state = ConnectionState.disconnected
    private var wireProtocol = Activ5Protocol.legacy
    private var progress = Activ5HandshakeProgress(wireProtocol: .legacy)
    private var telemetry: Activ5Telemetry
    private var streaming = false
    private var imuOn = false
    private var evergreen = false
    /// Force and IMU values, taken on the D-Bus thread once connected.
    private let forceLane: Activ5ForceLane

    /// What users asked for (streams): restored on every connect, from this gateway's memory or the broker's.
    private let desired: DesiredStateStore

    init(device: BlueZDevice, context: SessionContext, options: Activ5Options, desired: DesiredStateStore) {
        core = SessionCore(device: device, context: context, family: .a5)
        self.options = options
        self.desired = desired
        telemetry = Activ5Telemetry(id: context.id, topics: context.publisher.topics, thresholds: options.squeeze)
        forceLane = Activ5ForceLane(core: core, thresholds: options.squeeze)
    }

    // MARK: Lifecycle

    func tearDown() async {
        answers.cancelAll()
        streaming = false
        imuOn = false
        forceLane.reset()
        telemetry.reset(thresholds: options.squeeze)
        setState(.disconnected)
    }

    func connectAndSetUp() async throws {
        setState(.connecting)
        try await core.link.connect()
        setState(.handshake)
        let characteristics = await core.link.characteristicUUIDs()
        wireProtocol = Activ5Protocol.detect(
            serviceUUIDs: Array(await core.link.serviceUUIDs()), characteristicUUIDs: characteristics)
        // Neither profile: not an Activ5 (a `connect` request may name the wrong family). The legacy handshake
        // needs no answer, so without this check any device would "connect".
        guard wireProtocol == .new || characteristics.contains(Activ5GATT.Characteristic.legacyCommands) else {
            throw CommandError(.invalidState, "the device has neither Activ5 profile (no F0FE, no 5A02)")
        }
        progress = Activ5HandshakeProgress(wireProtocol: wireProtocol)
        for step in Activ5Handshake.steps(availableCharacteristics: characteristics) {
            try await perform(step)
        }
        let battery =
            wireProtocol == .new
            ? await readBatteryLevel(exported: characteristics.contains(Activ5GATT.Characteristic.batteryLevel)) : nil
        guard progress.isComplete else {
            throw CommandError(.timeout, "handshake incomplete, missing \(progress.missing.joined(separator: ", "))")
        }
        setState(.connected)
        forceLane.goLive()
        core.publish(telemetry.streaming(false))
        core.publish(telemetry.battery(level: battery ?? progress.batteryLevel, status: progress.status?.batteryStatus))
        core.publish(telemetry.info(infoMembers()))
        if evergreen { startEvergreen() }
        if wireProtocol == .new {
            // The legacy profile has no level to read (only TC5k's token): new-protocol devices only.
            let exported = characteristics.contains(Activ5GATT.Characteristic.batteryLevel)
            core.connection.repeating("battery", every: options.batteryInterval) { [weak self] in
                await self?.refreshBattery(exported: exported)
            }
        }
        await restoreDesired()
        core.logger.info(
            "Activ5 connected",
            metadata: ["protocol": "\(wireProtocol)", "firmware": "\(progress.firmwareVersion ?? "")"])
    }

    /// 2A19 when the stack exports it; else the level bluetoothd's battery plugin keeps (`Battery1`).
    private func readBatteryLevel(exported: Bool) async -> UInt8? {
        let uuid = Activ5GATT.Characteristic.batteryLevel
        guard exported else { return await core.link.batteryPercentage() }
        do {
            guard
                case .batteryLevel(let level) = try Activ5Notification.decode(
                    characteristic: uuid, bytes: try await core.link.read(uuid))
            else {
                return nil
            }
            return level
        } catch {
            core.logger.warning("battery level not read: \(error)")
            return nil
        }
    }

    private func refreshBattery(exported: Bool) async {
        guard let level = await readBatteryLevel(exported: exported) else { return }
        core.logger.debug("battery refreshed", metadata: ["level": "\(level)"])
        core.publish(telemetry.battery(level: level, status: progress.status?.batteryStatus))
    }

    private func infoMembers() -> [String: JSONValue] {
        var members = core.infoMembers
        members["protocol"] = .string(wireProtocol == .legacy ? "legacy" : "new")
        if let firmware = progress.firmwareVersion { members["firmware"] = .string(firmware) }
        if let version = progress.protocolVersion { members["protocol_version"] = .string(version) }
        if let serial = progress.serialNumber { members["serial"] = .string(serial) }
        if let deviceID = progress.deviceID { members["device_id"] = .string(deviceID) }
        return members
    }

    private func perform(_ step: Activ5HandshakeStep) async throws {
        let timeout = Duration.seconds(Activ5Handshake.answerTimeoutSeconds)
        switch step {
        case .subscribe(let uuid):
            try await subscribe(uuid)
        case .read(let uuid):
            received(try await core.link.read(uuid), from: uuid)
        case .awaitInitialMessage:
            // The device sends TC5k once subscribed; Web shows it takes TVGTIME without it, so no answer is not fatal.
            if try await send({}, awaiting: { step.isAnswered(by: $0) }, timeout: timeout) == false {
                core.logger.info("no TC5k within \(timeout)")
            }
        case .write(let command):
            try await write(command)
        case .request(let command):
            if try await send(
                { [self] in try await write(command) }, awaiting: { step.isAnswered(by: $0) }, timeout: timeout)
                == false
            {
                core.logger.info("no answer to \(command.legacyText ?? "")")
            }
        }
    }

    private func write(_ command: Activ5Command) async throws {
        switch command {
        case .subscribe(let uuid): try await subscribe(uuid)
        case .unsubscribe(let uuid): try await unsubscribe(uuid)
        default: try await core.link.write(command.encoded(), to: command.characteristicUUID)
        }
    }

    private func subscribe(_ uuid: String) async throws {
        guard !core.connection.isRunning(uuid) else { return }
        let stream = try await core.link.notifications(of: uuid, lane: forceLane.lane(for: uuid))
        core.connection.stream(uuid, stream) { [weak self] bytes in await self?.received(bytes, from: uuid) }
    }

    /// The stream's task is not cancelled: it publishes the values the device sent before the stop
    /// took effect, and ends with the stream, before the stop is reported.
    private func unsubscribe(_ uuid: String) async throws {
        guard let task = core.connection.release(uuid) else { return }
        try await core.link.stopNotifications(of: uuid)
        await task.value
    }

    // MARK: Notifications

    private func received(_ bytes: [UInt8], from uuid: String) {
        guard
            let notification = core.decode(
                bytes, from: uuid, { try Activ5Notification.decode(characteristic: uuid, bytes: $0) })
        else { return }
        progress.record(notification)
        answers.deliver(notification)
        forceLane.publish(notification)
    }

    // MARK: Commands

    func execute(_ command: Activ5BridgeCommand, name: String) async throws(CommandError) -> [String: JSONValue] {
        guard state == .connected else { throw CommandError(.notConnected, "Activ5 \(id) is \(state.rawValue)") }
        do {
            switch command {
            case .start:
                try await write(Activ5Command.startForce(wireProtocol))
                setStreaming(true)
                publishDesired()
            case .stop:
                try await write(Activ5Command.stopForce(wireProtocol))
                setStreaming(false)
                publishDesired()
            case .tare:
                if let deviceTare = Activ5Command.tare(wireProtocol) {
                    try await write(deviceTare)
                } else {
                    // No tare on the wire for new devices: subtract the mean of the last samples.
                    guard forceLane.tareOnRecentSamples() else {
                        throw CommandError(.invalidState, "tare needs force samples: start streaming first")
                    }
                }
            case .imu(let enabled):
                guard wireProtocol == .new else {
                    throw CommandError(.invalidState, "legacy Activ5 devices have no IMU")
                }
                try await write(enabled ? Activ5Command.startIMU : Activ5Command.stopIMU)
                imuOn = enabled
                publishDesired()
            case .samplePeriod(let period):
                guard wireProtocol == .new else {
                    throw CommandError(.invalidState, "legacy Activ5 devices have a fixed rate")
                }
                try await write(.setSamplePeriod(period))
            case .evergreen(let enabled):
                evergreen = enabled
                if enabled { startEvergreen() } else { core.connection.cancel(Self.evergreenKey) }
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.gattError, "\(error)")
        }
        return [:]
    }

    /// Starts again what users had started (`a5/<id>/desired`): after a lost link, a crash, or on a fleet's
    /// new owner. A failed start is logged, not fatal: the link is up and a command can try again.
    private func restoreDesired() async {
        let wanted = desired.take(id)
        do {
            if wanted["imu"] == .bool(true), wireProtocol == .new {
                try await write(Activ5Command.startIMU)
                imuOn = true
            }
            if wanted["streaming"] == .bool(true) {
                try await write(Activ5Command.startForce(wireProtocol))
                setStreaming(true)
            }
        } catch {
            core.logger.warning("could not restart the streams users had started: \(error)")
        }
        publishDesired()
    }

    /// `a5/<id>/desired`, retained: the streams users started, for whichever gateway serves the device next.
    private func publishDesired() {
        desired.record(["streaming": .bool(streaming), "imu": .bool(imuOn)], core: core)
    }

    private func setStreaming(_ on: Bool) {
        streaming = on
        if !on { forceLane.forgetSamples() }
        core.publish(telemetry.streaming(on))
    }

    /// The device switches off after 7 minutes without a command while not streaming; the vendors' clients
    /// send `STOP!` every minute to keep it on (activ5.md §6). Only while not streaming, unlike iOS.
    private func startEvergreen() {
        core.connection.repeating(Self.evergreenKey, every: options.keepAliveInterval) { [weak self] in
            await self?.keepAwake()
        }
    }

    private static let evergreenKey = "evergreen"

    private func keepAwake() async {
        guard state == .connected, !streaming else { return }
        do {
            try await write(.keepAlive)
        } catch {
            core.logger.warning("keep-alive failed: \(error)")
        }
    }
}
