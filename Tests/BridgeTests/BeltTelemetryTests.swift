import Peripherals
import TestSupport
import Testing

@testable import Bridge

struct BeltTelemetryTests {
    private func decode(_ uuid: String, _ bytes: [UInt8]) throws -> BeltNotification {
        try BeltNotification.decode(characteristic: uuid, bytes: bytes)
    }

    @Test(arguments: [
        ([0x02, 0x5A, 0x00] as [UInt8], "90"),
        ([0x02, 0xA6, 0xFF], "270"),  // -90
        ([0x02, 0x67, 0x01], "359"),
    ])
    func orientationBecomesAHeadingInWholeDegrees(heading: [UInt8], expected: String) throws {
        var telemetry = BeltTelemetry()
        let bytes = heading + [UInt8](repeating: 0, count: 13)
        let outputs = telemetry.outputs(for: try decode(BeltGATT.Characteristic.orientation, bytes))
        #expect(outputs.first == .value("heading", expected, qos: 0))
        guard case .value("orientation", let payload, qos: 0)? = outputs.last else {
            Issue.record("no orientation value: \(outputs)")
            return
        }
        #expect(payload.contains("\"belt_heading\":\(expected)"))
    }

    @Test func modeIsStateSaidOnChangeOnly() throws {
        var telemetry = BeltTelemetry()
        let keepAliveApp = try decode(BeltGATT.Characteristic.keepAlive, [0x01, 0x03])
        #expect(telemetry.outputs(for: keepAliveApp) == [.state("mode", "app")])
        #expect(telemetry.outputs(for: keepAliveApp) == [])
        #expect(telemetry.mode == .app)
        let parameterWait = try decode(BeltGATT.Characteristic.parameterNotification, [0x01, 0x01, 0x01])
        #expect(telemetry.outputs(for: parameterWait) == [.state("mode", "wait")])
    }

    @Test func batteryIsRetainedJSONWithLevelAndPower() throws {
        var telemetry = BeltTelemetry()
        // charging, 0x4B80 / 256 = 75.5 %
        let battery = try decode(
            BeltGATT.Characteristic.batteryStatus, [0x02, 0x80, 0x4B, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(
            telemetry.outputs(for: battery) == [
                .state("battery", #"{"level":75.5,"power":"charging","time_to_full_s":0}"#)
            ])
    }
}

extension BeltTelemetryTests {
    @Test func buttonPressesAreEventsAndMayChangeTheMode() throws {
        var telemetry = BeltTelemetry()
        // compass, long press (code 3), wait → compass
        let press = try decode(BeltGATT.Characteristic.buttonPress, [0x03, 0x03, 0x00, 0x01, 0x02])
        #expect(
            telemetry.outputs(for: press) == [
                .value(
                    "button", #"{"button":"compass","mode":"compass","press":"long","previous_mode":"wait"}"#, qos: 1),
                .state("mode", "compass"),
            ])
    }

    @Test func settingsAreRetainedState() throws {
        var telemetry = BeltTelemetry()
        let fe06 = BeltGATT.Characteristic.parameterNotification
        #expect(telemetry.outputs(for: try decode(fe06, [0x01, 0x02, 0x32])) == [.state("intensity", "50")])
        #expect(telemetry.outputs(for: try decode(fe06, [0x10, 0x01, 0x2D, 0x00])) == [.state("heading_offset", "45")])
        #expect(
            telemetry.outputs(for: try decode(fe06, [0x10, 0x03, 0x02]))
                == [.state("compass_accuracy_signal", #"{"app_mode":true,"compass_mode":false}"#)])
    }
}

struct TopicsAndRepliesTests {
    @Test func deviceIDsAreAddressHexOnly() {
        #expect(DeviceID.from(address: "AA:BB:CC:DD:EE:0F") == "aabbccddee0f")
        #expect(DeviceID.from(address: "+/#\u{0}AB") == "ab")
    }

    @Test func commandTopicsParseIntoFamilyIDAndName() {
        let topics = TopicMap(gateway: "gw")
        #expect(topics.parseCommand("belt/aabb/cmd/mode")! == (.belt, "aabb", "mode"))
        #expect(topics.parseCommand("belt/aabb/mode") == nil)
        #expect(topics.parseCommand("belt//cmd/mode") == nil)
        #expect(topics.parseCommand("toaster/aabb/cmd/mode") == nil)
        #expect(topics.commandFilter(.belt) == "belt/+/cmd/+")
        #expect(topics.status == "gatt2mqtt/gw/status")
        #expect(!TopicMap.isValidGatewayName("a/b"))
        #expect(!TopicMap.isValidGatewayName("a+"))
        #expect(TopicMap.isValidGatewayName("gw-1_a"))
        #expect(!TopicMap.isValidGatewayName(String(repeating: "g", count: 65)))
        // Fleet topics from names or ids no gateway or device may have are not fleet topics at all.
        let fleetTopics = TopicMap(gateway: "gw-a")
        #expect(fleetTopics.parseFleetHeartbeat("gatt2mqtt/!/fleet") == nil)
        #expect(fleetTopics.parseFleetHeartbeat("gatt2mqtt/gw-b/fleet") == "gw-b")
        #expect(fleetTopics.parseGatewayStatus("gatt2mqtt/!/status") == nil)
        #expect(fleetTopics.parseGatewayStatus("gatt2mqtt/gw-b/status") == "gw-b")
        #expect(fleetTopics.parseClaim("gatt2mqtt/gw-b/claim/belt/" + String(repeating: "a", count: 65)) == nil)
        #expect(fleetTopics.parseClaim("gatt2mqtt/gw-b/claim/belt/Ünï") == nil)
        #expect(fleetTopics.parseClaim("gatt2mqtt/gw-b/claim/belt/aabb")?.id == "aabb")
    }

    @Test func repliesCarryOutcomeErrorAndTransaction() {
        #expect(CommandReply(command: "mode").json.text == #"{"command":"mode","ok":true}"#)
        let failed = CommandReply(
            command: "vibrate", error: CommandError(.notConnected, "belt \"x\" is gone"), transaction: .number(7))
        #expect(
            failed.json.text
                == #"{"command":"vibrate","error":{"code":"not_connected","message":"belt \"x\" is gone"},"ok":false,"transaction":7}"#
        )
    }
}

/// The orientation payload written straight is the JSON the model gives, for any value.
struct BeltOrientationPayloadTests {
    @Test func theStraightPayloadIsTheModelsJSONByteForByte() {
        var random = SplitMix64(seed: 32)
        for _ in 0..<2_000 {
            let value = BeltOrientation(
                sensorID: UInt8.random(in: .min ... .max, using: &random),
                beltHeading: Int16.random(in: .min ... .max, using: &random),
                boxHeading: Int16.random(in: .min ... .max, using: &random),
                boxRoll: Int16.random(in: .min ... .max, using: &random),
                boxPitch: Int16.random(in: .min ... .max, using: &random),
                accuracy: UInt16.random(in: .min ... .max, using: &random),
                magnetometerStatus: Int8.random(in: .min ... .max, using: &random),
                accelerometerStatus: Int8.random(in: .min ... .max, using: &random),
                gyroscopeStatus: Int8.random(in: .min ... .max, using: &random),
                fusionStatus: Int8.random(in: .min ... .max, using: &random),
                isInaccurate: Bool.random(using: &random))
            #expect(BeltTelemetry.orientationPayload(value) == BeltTelemetry.orientationJSON(value).text)
        }
    }
}
