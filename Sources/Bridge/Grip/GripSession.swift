import BlueZ
import DBus
import Logging
import Peripherals

/// One camera grip, driven entirely by the replaceable `GripProfile`: bonds when the profile says
/// the grip requires it, reads its device information, refuses firmware below the profile's minimum,
/// and publishes battery and events.
actor GripSession: LinkedSession, CommandedSession {
    private let profile: GripProfile
    nonisolated let core: SessionCore
    var state = ConnectionState.disconnected
    /// What was last published on each retained leaf.
    private var retained: RetainedLeaves
    /// Events, on the thread that received them once the grip is ready; the lane holds their topic.
    private let events: TelemetryLane<String>

    init(device: BlueZDevice, context: SessionContext, profile: GripProfile) {
        core = SessionCore(device: device, context: context, family: .grip)
        retained = RetainedLeaves(.grip, id: core.id, topics: core.topics)
        events = TelemetryLane(core: core, state: core.topic("event"))
        self.profile = profile
    }

    /// Publishes retained state when it changed.
    private func retain(_ leaf: String, _ payload: String) {
        core.publish(retained.changed(leaf, payload))
    }

    // MARK: Lifecycle

    func tearDown() async {
        events.stop()
        // Live state is cleared with the link: the next connection publishes it again.
        retained.forget(core.liveStateLeaves)
        setState(.disconnected)
    }

    func connectAndSetUp() async throws {
        setState(.connecting)
        try await bondIfRequired()
        try await core.link.connect(timeout: .seconds(max(profile.reconnectTimeoutSeconds, 1)))
        setState(.handshake)
        do {
            try await start()
        } catch let error as DBusError
            where error.name == "org.bluez.Error.NotPermitted" || error.name == "org.bluez.Error.NotAuthorized"
        {
            // The grip answers as if we had no bond: it is bonded to another host (the SDK's "paired elsewhere").
            retain("state", "not_bonded")
            throw DeviceFailure(
                .notBonded,
                "the grip refuses this gateway's bond; it is probably bonded elsewhere: forget it there, or forget and pair it here (\(error))"
            )
        }
    }

    /// The grip talks only to a bonded host: pair (Just Works through the gateway's agent) and trust it.
    private func bondIfRequired() async throws {
        let paired = await core.link.current()?.paired ?? false
        if profile.pairingRequired, !paired {
            do {
                try await core.link.pairAndTrust()
            } catch {
                retain("bonded", "false")
                retain("state", "pairing_failed")
                throw DeviceFailure(.pairingFailed, "\(error)")
            }
        }
        retain("bonded", String(paired || profile.pairingRequired))
    }

    private func start() async throws {
        let information = profile.deviceInformation
        var info = core.infoMembers
        for (key, uuid) in [
            ("manufacturer", information.manufacturerNameUUID), ("model", information.modelNumberUUID),
            ("hardware", information.hardwareRevisionUUID), ("firmware", information.firmwareRevisionUUID),
        ] {
            let bytes = try await core.link.read(uuid, in: information.serviceUUID)
            info[key] = .string(try profile.deviceInformationString(characteristic: uuid, bytes: bytes))
        }
        retain("info", JSONValue.object(info).text)

        let firmwareText = info["firmware"]?.string ?? ""
        guard try profile.supportsFirmware(firmwareText) else {
            retain("state", "unsupported_firmware")
            setState(.connected)
            core.logger.warning(
                "firmware \(firmwareText) is below the profile's minimum \(profile.minimumFirmware?.description ?? ""): no events"
            )
            return
        }

        let source = profile.battery
        battery(try await core.link.read(source.levelCharacteristicUUID, in: source.serviceUUID))
        if let stream = try? await core.link.notifications(of: source.levelCharacteristicUUID, in: source.serviceUUID) {
            core.connection.stream(source.levelCharacteristicUUID, stream) { [weak self] bytes in
                await self?.battery(bytes)
            }
        }
        let stream = try await core.link.notifications(
            of: profile.eventCharacteristicUUID, in: profile.eventServiceUUID, lane: eventLane())
        core.connection.stream(profile.eventCharacteristicUUID, stream) { [weak self] bytes in await self?.event(bytes)
        }
        retain("state", "ready")
        setState(.connected)
        events.goLive()
        core.logger.info("grip connected", metadata: ["firmware": "\(firmwareText)"])
    }

    // MARK: Notifications

    private func battery(_ bytes: [UInt8]) {
        guard let info = core.decode(bytes, from: profile.battery.levelCharacteristicUUID, profile.batteryInfo(bytes:))
        else { return }
        retain("battery", JSONValue.object(["level": .number(Double(info.level)), "low": .bool(info.isLow)]).text)
    }

    /// Events are the grip's stream: they take the lane.
    private nonisolated func eventLane() -> NotificationLane {
        events.lane(for: profile.eventCharacteristicUUID) { [profile] topic, bytes in
            [Self.publication(of: try profile.event(bytes: bytes), on: topic)]
        }
    }

    /// What the lane did not take (before the grip was ready): malformed bytes are counted and logged.
    private func event(_ bytes: [UInt8]) {
        guard let event = core.decode(bytes, from: profile.eventCharacteristicUUID, profile.event(bytes:)) else {
            return
        }
        events.publish { [Self.publication(of: event, on: $0)] }
    }

    /// An event is not state: QoS 1, not retained (topics.md).
    private static func publication(of event: GripEvent, on topic: String) -> Publication {
        Publication(topic: topic, payload: event.rawValue, qos: 1)
    }

    // MARK: Commands

    /// The grip takes no commands: its parser refuses every one, so none reaches it.
    func execute(_ command: Never, name: String) async throws(CommandError) -> [String: JSONValue] {}
}
