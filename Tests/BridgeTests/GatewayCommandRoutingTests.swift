import BlueZ
import MQTT
import Peripherals
import Testing

@testable import Bridge

/// The gateway's command path, whole but in memory (`InMemoryGateway`): topics parsed, payloads checked,
/// refusals answered and rate-limited in the log, answers kept off state topics, and never a GATT write
/// for bad input. What crosses a real boundary (the broker's Maximum Packet Size, the simulator's writes
/// over BlueZ) stays in the process tests.
@Suite(.timeLimit(.minutes(1))) struct GatewayCommandRoutingTests {
    /// Every command of every family the gateway serves, from the registry (`FamilyRegistry`, each driver's
    /// `commandExamples`): a family added there is in this matrix without a line here. A family without commands
    /// (the grip) is tried with a command it does not have.
    static let commands: [(family: String, names: [String])] = FamilyRegistry.drivers.map { type in
        let driver = type.init(
            configuration: BridgeConfiguration(
                mqtt: MQTTConfiguration(host: "in-memory"), adapters: ["hci0"], gateway: "t"))
        return (type.family.rawValue, driver.commandExamples.map(\.command))
    }

    static let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)

    /// Payload, and the codes it may earn: structure problems are `invalid_payload`, content problems `invalid_value`.
    static let payloads: [(name: String, bytes: [UInt8], codes: Set<String>)] = [
        ("not JSON", Array("{\"value\":".utf8), ["invalid_payload"]),
        ("array", Array("[1,2]".utf8), ["invalid_payload"]),
        ("deep nesting", Array("{\"value\":\(deep)}".utf8), ["invalid_payload"]),
        // Above payload_size_limit (16 KiB): answered that it is too large.
        ("20 KiB", [UInt8](repeating: 0x61, count: 20 * 1024), ["invalid_payload"]),
        ("invalid UTF-8", [0x7B, 0xC3, 0x28, 0x7D], ["invalid_payload"]),
        ("NaN", Array("{\"value\":NaN}".utf8), ["invalid_payload"]),
        ("wrong type", Array("{\"value\":[1]}".utf8), ["invalid_value"]),
        ("unknown field", Array("{\"speed\":3}".utf8), ["invalid_value"]),
    ]

    /// Every command topic of every family × malformed payloads: an error reply with a stable code, a few log
    /// lines per code, no GATT write to any family's device, and the gateway keeps serving.
    @Test func malformedCommandsAreRefusedWithoutAnyWrite() async throws {
        try await InMemoryGateway.with { gateway in
            var devices: [String: (link: InMemoryLink, id: String, written: Int)] = [:]
            for (index, family) in DeviceFamily.allCases.enumerated() {
                let address = "00:11:22:33:45:" + String(0x10 + index, radix: 16, uppercase: true)
                let link = try #require(InMemoryDevices.of(family, address: address), "no in-memory \(family)")
                let id = await gateway.connect(link, family: family.rawValue)
                devices[family.rawValue] = (link, id, await link.writes.count)
            }
            let ids = devices.mapValues(\.id)

            var cases = 0
            for (family, names) in Self.commands {
                let id = try #require(ids[family])
                for name in names + ["fly"] {
                    for payload in Self.payloads {
                        let topic = "reply/matrix/\(family)/\(name)/\(cases)"
                        try gateway.publish(
                            MQTTMessage(
                                topic: "\(family)/\(id)/cmd/\(name)", payload: payload.bytes, qos: .atLeastOnce,
                                responseTopic: topic))
                        let reply = await gateway.probe.next(on: topic).payloadString ?? ""
                        let expected =
                            name == "fly" && payload.codes.contains("invalid_value")
                            ? ["unknown_command"] : payload.codes
                        #expect(reply.contains(#""ok":false"#), "\(family)/\(name) × \(payload.name): \(reply)")
                        #expect(
                            expected.contains { reply.contains(#""code":"\#($0)""#) },
                            "\(family)/\(name) × \(payload.name): \(reply)")
                        cases += 1
                    }
                }
            }
            #expect(cases == Self.commands.map { $0.names.count + 1 }.reduce(0, +) * Self.payloads.count)
            for (family, device) in devices {
                let writes = await device.link.writes.dropFirst(device.written)
                #expect(writes.isEmpty, "the \(family) device received \(writes)")
            }

            // Refusals are logged a few times a minute per error code: anyone on the broker can send them.
            for code in ["invalid_payload", "invalid_value", "unknown_command"] {
                let lines = gateway.log.lines.filter { $0.contains("command refused") && $0.contains(code) }.count
                #expect((1...5).contains(lines), "\(code): \(lines) lines for \(cases) refusals")
            }
            // And the gateway still serves: a valid command is written.
            let band = try #require(devices["cpr"])
            try gateway.publish("cpr/\(band.id)/cmd/practice", "{}", responseTopic: "reply/test/valid")
            #expect(
                await gateway.probe.next(on: "reply/test/valid").payloadString == #"{"command":"practice","ok":true}"#)
            #expect(await band.link.writes.count > band.written)
        }
    }

    /// A command's response topic that names a state topic (here the gateway's own status) is not written to: the
    /// answer goes to the device's `reply` topic instead, and the status stays `online`. A command topic whose id no
    /// device may have is ignored with a warning.
    @Test func answersNeverOverwriteStateAndMalformedCommandTopicsAreIgnored() async throws {
        try await InMemoryGateway.with { gateway in
            let id = await gateway.connect(InMemoryDevices.belt(), family: "belt")
            let mark = gateway.probe.mark
            try gateway.publish("belt/\(id)/cmd/mode", #"{"mode":"app"}"#, responseTopic: "gatt2mqtt/test/status")
            #expect(
                await gateway.probe.next(on: "belt/\(id)/reply", after: mark).payloadString
                    == #"{"command":"mode","ok":true}"#)
            #expect(
                !gateway.probe.messages.dropFirst(mark).contains { $0.topic == "gatt2mqtt/test/status" },
                "the status was never overwritten")
            #expect(gateway.broker.retained("gatt2mqtt/test/status")?.payloadString == "online")
            try gateway.publish(
                "belt/\(String(repeating: "é", count: 40))/cmd/mode", #"{"mode":"app"}"#,
                responseTopic: "reply/test/bad-id")
            await gateway.log.waitForLine(containing: "command ignored: its topic names no valid device id or command")
        }
    }

    /// Issue #43: a command sender named another system's command topic as its response topic, and the gateway
    /// wrote there with its own broker rights. Outside the reply space the answer goes to the device's `reply`
    /// topic, and the refusal is logged a few times a minute only; `broker.reply_topics` moves the space.
    @Test func answersStayInTheReplySpace() async throws {
        try await InMemoryGateway.with(configure: {
            $0.replyTopics = [TopicFilter("reply/#")!, TopicFilter("nodered/+/answers")!]
        }) { gateway in
            let id = await gateway.connect(InMemoryDevices.belt(), family: "belt")
            let mark = gateway.probe.mark
            for _ in 0..<20 {
                try gateway.publish("belt/\(id)/cmd/mode", #"{"mode":"app"}"#, responseTopic: "cmnd/plug/POWER")
            }
            try gateway.publish("belt/\(id)/cmd/mode", #"{"mode":"app"}"#, responseTopic: "nodered/flow/answers")
            await gateway.probe.next(on: "nodered/flow/answers", after: mark)
            #expect(gateway.probe.messages.dropFirst(mark).filter { $0.topic == "belt/\(id)/reply" }.count == 20)
            #expect(!gateway.probe.messages.dropFirst(mark).contains { $0.topic == "cmnd/plug/POWER" })
            let warnings = gateway.log.lines.filter { $0.contains("response topic refused") }
            #expect((1...5).contains(warnings.count), "\(warnings)")
            #expect(warnings.first?.contains("cmnd/plug/POWER") == true, "\(warnings)")
        }
    }

    /// A QoS 1 redelivery (the same transaction on the same topic) runs once: one answer, one write.
    @Test func aRepeatedTransactionRunsOnce() async throws {
        try await InMemoryGateway.with { gateway in
            let band = InMemoryDevices.cprBand()
            let id = await gateway.connect(band, family: "cpr")
            let written = await band.writes.count
            for _ in 0..<2 {
                try gateway.publish(
                    "cpr/\(id)/cmd/practice", #"{"transaction":"t-1"}"#, responseTopic: "reply/test/once")
            }
            await gateway.log.waitForLine(containing: "repeated command ignored")
            #expect(
                await gateway.probe.next(on: "reply/test/once").payloadString
                    == #"{"command":"practice","ok":true,"transaction":"t-1"}"#)
            // A later, different command is a barrier: the repeat would have been answered before it.
            try gateway.publish("cpr/\(id)/cmd/ready", "{}", responseTopic: "reply/test/after")
            await gateway.probe.next(on: "reply/test/after")
            #expect(gateway.probe.payloads(on: "reply/test/once").count == 1)
            #expect(
                await band.writes.dropFirst(written).map(\.bytes) == CPRBandCommand.practice.writes
                    + CPRBandCommand.ready.writes)
        }
    }
}
