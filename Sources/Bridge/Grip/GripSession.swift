import BlueZ
import DBus
import Logging
import Peripherals

/// One camera grip, driven entirely by the replaceable `GripProfile`: bonds when the profile says
/// the grip requires it, reads its device information, refuses firmware below the profile's minimum,
/// and publishes battery and events.
actor GripSession: DeviceSession {
    nonisolated let id: String
    nonisolated var family: DeviceFamily { .grip }
    private let link: DeviceLink
    private let publisher: BrokerPublisher
    private let gateway: String
    private let profile: GripProfile
    private let logger: Logger
    private let stateChanged: @Sendable (ConnectionState) -> Void
    private let metrics: DeviceMetrics
    private var metricsKey: String { "\(family.rawValue)/\(id)" }
    private let loss = LinkLoss()
    private var state = ConnectionState.disconnected
    private var streamTasks: [String: Task<Void, Never>] = [:]
    private var lastState: [String: String] = [:]

    init(device: BlueZDevice, context: SessionContext, profile: GripProfile) {
        id = context.id
        link = DeviceLink(device: device, bluez: context.bluez)
        publisher = context.publisher
        stateChanged = context.stateChanged
        metrics = context.metrics
        gateway = context.gateway
        self.profile = profile
        var logger = context.logger
        logger[metadataKey: "device"] = "\(device.address)"
        logger[metadataKey: "family"] = "grip"
        self.logger = logger
    }

    private func topic(_ leaf: String) -> String { publisher.topics.device(.grip, id, leaf) }

    /// Publishes retained state when it changed.
    private func retain(_ leaf: String, _ payload: String) {
        guard lastState[leaf] != payload else { return }
        lastState[leaf] = payload
        publisher.publish(.state(topic(leaf), payload))
    }

    // MARK: Lifecycle

    func run() async {
        await SessionLifecycle.run(logger: logger, loss: loss, connect: { try await connectAndStart() }, abandon: { await link.disconnect() }, tearDown: { await tearDown() })
    }

    func linkDidDrop() { loss.signal() }

    func shutDown() async {
        if state != .disconnected { await link.disconnect() }
        loss.signal()
        await tearDown()
    }

    private func setState(_ newState: ConnectionState) {
        guard newState != state else { return }
        state = newState
        publisher.publish(.state(topic("connection"), newState.rawValue))
        stateChanged(newState)
        if newState == .connected { metrics.connected(metricsKey) }
    }

    private func tearDown() async {
        streamTasks.values.forEach { $0.cancel() }
        streamTasks = [:]
        await link.reset()
        setState(.disconnected)
    }

    private func connectAndStart() async throws {
        setState(.connecting)
        try await bondIfRequired()
        try await link.connect(timeout: .seconds(max(profile.reconnectTimeoutSeconds, 1)))
        setState(.handshake)
        do {
            try await start()
        } catch let error as DBusError where error.name == "org.bluez.Error.NotPermitted" || error.name == "org.bluez.Error.NotAuthorized" {
            // The grip answers as if we had no bond: it is bonded to another host (the SDK's "paired elsewhere").
            retain("state", "not_bonded")
            logger.error("the grip refuses this gateway's bond; it is probably bonded elsewhere: forget it there, or forget and pair it here")
            throw error
        }
    }

    /// The grip talks only to a bonded host: pair (Just Works through the gateway's agent) and trust it.
    private func bondIfRequired() async throws {
        let paired = await link.bluez.device(at: link.device.path)?.paired ?? false
        if profile.pairingRequired, !paired {
            do {
                try await link.bluez.pair(devicePath: link.device.path)
                try await link.bluez.setTrusted(devicePath: link.device.path)
            } catch {
                retain("bonded", "false")
                retain("state", "pairing_failed")
                throw error
            }
        }
        retain("bonded", String(paired || profile.pairingRequired))
    }

    private func start() async throws {
        let information = profile.deviceInformation
        var info: [String: JSONValue] = ["address": .string(link.device.address), "family": .string("grip"), "gateway": .string(gateway)]
        if let name = link.device.name ?? link.device.alias { info["name"] = .string(name) }
        for (key, uuid) in [
            ("manufacturer", information.manufacturerNameUUID), ("model", information.modelNumberUUID),
            ("hardware", information.hardwareRevisionUUID), ("firmware", information.firmwareRevisionUUID),
        ] {
            let bytes = try await link.read(uuid, in: information.serviceUUID)
            info[key] = .string(try profile.deviceInformationString(characteristic: uuid, bytes: bytes))
        }
        retain("info", JSONValue.object(info).text)

        let firmwareText = info["firmware"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? ""
        guard try profile.supportsFirmware(firmwareText) else {
            retain("state", "unsupported_firmware")
            setState(.connected)
            logger.warning("firmware \(firmwareText) is below the profile's minimum \(profile.minimumFirmware?.description ?? ""): no events")
            return
        }

        let source = profile.battery
        battery(try await link.read(source.levelCharacteristicUUID, in: source.serviceUUID))
        if let stream = try? await link.notifications(of: source.levelCharacteristicUUID, in: source.serviceUUID) {
            streamTasks[source.levelCharacteristicUUID] = Task { [weak self] in
                for await bytes in stream { await self?.battery(bytes) }
            }
        }
        let events = try await link.notifications(of: profile.eventCharacteristicUUID, in: profile.eventServiceUUID)
        streamTasks[profile.eventCharacteristicUUID] = Task { [weak self] in
            for await bytes in events { await self?.event(bytes) }
        }
        retain("state", "ready")
        setState(.connected)
        logger.info("grip connected", metadata: ["firmware": "\(firmwareText)"])
    }

    // MARK: Notifications

    private func battery(_ bytes: [UInt8]) {
        metrics.notification(metricsKey)
        do {
            let info = try profile.batteryInfo(bytes: bytes)
            retain("battery", JSONValue.object(["level": .number(Double(info.level)), "low": .bool(info.isLow)]).text)
        } catch {
            malformed(bytes, error)
        }
    }

    private func event(_ bytes: [UInt8]) {
        metrics.notification(metricsKey)
        do {
            let event = try profile.event(bytes: bytes)
            publisher.publish(Publication(topic: topic("event"), payload: event.rawValue, qos: 1))
        } catch {
            malformed(bytes, error)
        }
    }

    private func malformed(_ bytes: [UInt8], _ error: any Error) {
        metrics.decodeError(metricsKey)
        logger.warning("malformed notification", metadata: ["bytes": "\(bytes.hex)", "error": "\(error)"])
    }

    // MARK: Commands

    func execute(command name: String, payload: CommandPayload) async throws(CommandError) {
        try GripDriver.rejectCommand(name)
    }
}
