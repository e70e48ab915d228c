import Foundation
import TestSupport
import Testing

/// Issue #43, item 2: text from the radio or the broker cannot write a log entry of its own or reach a terminal as
/// a control sequence. A belt advertises a name holding a newline, a forged entry and ESC, and a command's JSON
/// has a field named so; the daemon's every line must still be one entry, with the hostile text escaped.
@Suite(.serialized)
struct HostileTextInLogTests {
    /// What a forged entry would look like, had the newline gone through.
    private static let forged = "2026-01-01T00:00:00+0000 critical gatt2mqtt: fake"

    @Test(arguments: BlueZWorld.enabled)
    func hostileNamesAndFieldsStayInsideOneEscapedLine(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let belt = try await world.startSimulator(["belt", "--name", "naviGuertel-x\n\(Self.forged)\u{1B}[2J"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let bridge = try await world.startBridge()
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }

            let payload = #"{"mode":"app","x\n\#(Self.forged)\u001b[2J":1}"#
            try recorder.publish("belt/\(id)/cmd/mode", payload)
            let reply = try await recorder.waitFor("belt/\(id)/reply")
            #expect(reply.payloadString?.contains(#""code":"invalid_value""#) == true, "\(reply.payloadString ?? "")")
            try await bridge.waitForLine(containing: "command refused")
            await recorder.stop()
            #expect(await bridge.terminate() == .exited(0))

            let lines = bridge.lines.map(\.text)
            for line in lines {
                #expect(
                    line.range(
                        of:
                            #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} (trace|debug|info|notice|warning|error|critical) "#,
                        options: .regularExpression) != nil, "one entry per line: \(line)")
                #expect(
                    !line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F },
                    "no control character: \(line)")
            }
            let escaped = #"\n\#(Self.forged)\u{1B}[2J"#
            // The whole name in BlueZoo; the real stack takes it from the advertisement, cut to what fits in one
            // (`naviGuertel-x\n2026-01-01T00:0`): the newline is there, escaped, either way.
            let name = kind == .real ? #"name=naviGuertel-x\n2026-01-01T00:0"# : "name=naviGuertel-x" + escaped
            #expect(lines.contains { $0.contains("device found") && $0.contains(name) }, "the name, escaped")
            #expect(
                lines.contains { $0.contains("command refused") && $0.contains("x" + escaped) }, "the field, escaped")
        }
    }
}
