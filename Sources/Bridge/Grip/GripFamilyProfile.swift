import Peripherals

/// The camera grip for the session engine, entirely as the replaceable `GripProfile` describes it: it bonds when the
/// profile says the grip requires it, reads its device information, refuses firmware below the profile's minimum,
/// and streams its battery and its events. It takes no commands.
struct GripFamilyProfile: FamilyProfile {
    typealias Command = Never
    let profile: GripProfile

    let family = DeviceFamily.grip
    var connectTimeout: Duration { .seconds(max(profile.reconnectTimeoutSeconds, 1)) }
    var initialStreamState: Void { () }

    var streams: [ProfileStream<Void>] {
        let profile = profile
        return [
            // Read first, so the level is there before the first change; some grips may only answer reads.
            ProfileStream(
                characteristic: profile.battery.levelCharacteristicUUID, service: profile.battery.serviceUUID,
                isOptional: true, readFirst: true
            ) { _, bytes in
                let info = try profile.batteryInfo(bytes: bytes)
                return [
                    .state(
                        "battery",
                        JSONValue.object(["level": .number(Double(info.level)), "low": .bool(info.isLow)]).text)
                ]
            },
            // An event is not state: QoS 1, not retained (topics.md).
            ProfileStream(characteristic: profile.eventCharacteristicUUID, service: profile.eventServiceUUID) {
                _, bytes in [.value("event", try profile.event(bytes: bytes).rawValue, qos: 1)]
            },
        ]
    }

    /// The grip talks only to a bonded host: pair (Just Works through the gateway's agent) and trust it.
    func prepare(_ device: ConnectedDevice<Self>) async throws {
        let paired = await device.isPaired
        if profile.pairingRequired, !paired {
            do {
                try await device.pairAndTrust()
            } catch {
                device.state("bonded", "false")
                device.state("state", "pairing_failed")
                throw DeviceFailure(.pairingFailed, "\(error)")
            }
        }
        device.state("bonded", String(paired || profile.pairingRequired))
    }

    func handshake(_ device: ConnectedDevice<Self>) async throws -> HandshakeOutcome {
        do {
            return try await readInformation(device)
        } catch let error as GATTAccessRefused {
            // The grip answers as if we had no bond: it is bonded to another host (the SDK's "paired elsewhere").
            device.state("state", "not_bonded")
            throw DeviceFailure(
                .notBonded,
                "the grip refuses this gateway's bond; it is probably bonded elsewhere: forget it there, or forget and pair it here (\(error))"
            )
        }
    }

    private func readInformation(_ device: ConnectedDevice<Self>) async throws -> HandshakeOutcome {
        let information = profile.deviceInformation
        var info: [String: JSONValue] = [:]
        for (key, uuid) in [
            ("manufacturer", information.manufacturerNameUUID), ("model", information.modelNumberUUID),
            ("hardware", information.hardwareRevisionUUID), ("firmware", information.firmwareRevisionUUID),
        ] {
            let bytes = try await device.read(uuid, in: information.serviceUUID)
            info[key] = .string(try profile.deviceInformationString(characteristic: uuid, bytes: bytes))
        }
        device.describe(info)
        let firmware = info["firmware"]?.string ?? ""
        guard try profile.supportsFirmware(firmware) else {
            device.state("state", "unsupported_firmware")
            return .silent(
                reason:
                    "firmware \(firmware) is below the profile's minimum \(profile.minimumFirmware?.description ?? ""): no events"
            )
        }
        return .streaming
    }

    func streamsAreLive(_ device: ConnectedDevice<Self>) {
        device.state("state", "ready")
        device.logger.info("grip connected")
    }
}
