import Peripherals
import TestSupport
import Testing

@testable import Bridge

struct BeltTelemetryTests {
    let topics = TopicMap(gateway: "gw")

    private func decode(_ uuid: String, _ bytes: [UInt8]) throws -> BeltNotification {
        try BeltNotification.decode(characteristic: uuid, bytes: bytes)
    }

    @Test(arguments: [
        ([0x02, 0x5A, 0x00] as [UInt8], "90"),
        ([0x02, 0xA6, 0xFF], "270"),  // -90
        ([0x02, 0x67, 0x01], "359"),
    ])
    func orientationBecomesAHeadingInWholeDegrees(heading: [UInt8], expected: String) throws {
        var telemetry = BeltTelemetry(id: "aabbccddeeff", topics: topics)
        let bytes = heading + [UInt8](repeating: 0, count: 13)
        let publications = telemetry.publications(for: try decode(BeltGATT.Characteristic.orientation, bytes))
        #expect(publications.first == Publication(topic: "belt/aabbccddeeff/heading", payload: expected))
        #expect(publications.last?.topic == "belt/aabbccddeeff/orientation")
        #expect(publications.last?.payload.contains("\"belt_heading\":\(expected)") == true)
    }

    @Test func modeIsRetainedStatePublishedOnChangeOnly() throws {
        var telemetry = BeltTelemetry(id: "id", topics: topics)
        let keepAliveApp = try decode(BeltGATT.Characteristic.keepAlive, [0x01, 0x03])
        #expect(telemetry.publications(for: keepAliveApp) == [.state("belt/id/mode", "app")])
        #expect(telemetry.publications(for: keepAliveApp) == [])
        let parameterWait = try decode(BeltGATT.Characteristic.parameterNotification, [0x01, 0x01, 0x01])
        #expect(telemetry.publications(for: parameterWait) == [.state("belt/id/mode", "wait")])
        telemetry.reset()
        #expect(telemetry.publications(for: parameterWait) == [.state("belt/id/mode", "wait")])
    }

    @Test func batteryIsRetainedJSONWithLevelAndPower() throws {
        var telemetry = BeltTelemetry(id: "id", topics: topics)
        // charging, 0x4B80 / 256 = 75.5 %
        let battery = try decode(
            BeltGATT.Characteristic.batteryStatus, [0x02, 0x80, 0x4B, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(
            telemetry.publications(for: battery) == [
                .state("belt/id/battery", #"{"level":75.5,"power":"charging","time_to_full_s":0}"#)
            ])
        #expect(telemetry.publications(for: battery) == [], "unchanged state is not sent again")
    }
}

extension BeltTelemetryTests {
    @Test func buttonPressesAreEventsAndMayChangeTheMode() throws {
        var telemetry = BeltTelemetry(id: "id", topics: topics)
        // compass, long press (code 3), wait → compass
        let press = try decode(BeltGATT.Characteristic.buttonPress, [0x03, 0x03, 0x00, 0x01, 0x02])
        #expect(
            telemetry.publications(for: press) == [
                Publication(
                    topic: "belt/id/button",
                    payload: #"{"button":"compass","mode":"compass","press":"long","previous_mode":"wait"}"#, qos: 1),
                .state("belt/id/mode", "compass"),
            ])
    }

    @Test func settingsAreRetainedState() throws {
        var telemetry = BeltTelemetry(id: "id", topics: topics)
        let fe06 = BeltGATT.Characteristic.parameterNotification
        #expect(
            telemetry.publications(for: try decode(fe06, [0x01, 0x02, 0x32])) == [.state("belt/id/intensity", "50")])
        #expect(
            telemetry.publications(for: try decode(fe06, [0x10, 0x01, 0x2D, 0x00])) == [
                .state("belt/id/heading_offset", "45")
            ])
        #expect(
            telemetry.publications(for: try decode(fe06, [0x10, 0x03, 0x02]))
                == [.state("belt/id/compass_accuracy_signal", #"{"app_mode":true,"compass_mode":false}"#)])
        let info = telemetry.info(
            [
                "address": .string("00:11:22:33:44:51"), "family": .string("belt"), "gateway": .string("gw"),
                "name": .string("naviGuertel-SIM"),
            ],
            firmware: BeltFirmwareInfo(version: 52))
        #expect(
            info == [
                .state(
                    "belt/id/info",
                    #"{"address":"00:11:22:33:44:51","family":"belt","firmware":52,"gateway":"gw","name":"naviGuertel-SIM"}"#
                )
            ])
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
            #expect(BeltOrientationTopics.orientationPayload(value) == BeltTelemetry.orientationJSON(value).text)
        }
    }
}
