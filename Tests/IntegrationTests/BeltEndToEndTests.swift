import Foundation
import MQTT
import TestSupport
import Testing

/// mosquitto → gatt2mqtt → BlueZoo → virtual belt, and back, with real processes only.
@Suite(.serialized)
struct BeltEndToEndTests {
    static let parameterRequest = "0000fe05-0000-1000-8000-00805f9b34fb"
    static let vibrationCommand = "0000fe03-0000-1000-8000-00805f9b34fb"

    /// Runs `body` in a fresh world with a virtual belt on hci1, and stops everything afterwards.
    private func withBeltWorld(_ kind: BlueZWorld, _ body: (TestWorld, ManagedProcess, String) async throws -> Void)
        async throws
    {
        try await TestWorld.with(kind) { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            try await body(world, belt, id)
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func beltTelemetryCommandsAndRetainedState(_ kind: BlueZWorld) async throws {
        try await withBeltWorld(kind) { world, belt, id in
            let recorder = try await TopicRecorder(world: world)
            let bridge = try await world.startBridge(gateway: "test")

            try await recorder.waitFor("gatt2mqtt/test/status") { $0.payloadString == "online" }
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/\(id)/mode")
            // The handshake reads FE09 as iOS does, so the battery is known at once (not only from notifications).
            try await belt.waitForLine(after: 0) { $0 == "READ 0000fe09-0000-1000-8000-00805f9b34fb" }
            try await recorder.waitFor("belt/\(id)/battery")

            // State is retained: a subscriber that comes later gets it with the retain flag.
            let snapshot = try await TopicRecorder(world: world)
            #expect(try await snapshot.waitFor("gatt2mqtt/test/status").payloadString == "online")
            let adapter = try await snapshot.waitFor("gatt2mqtt/test/adapter")
            #expect(adapter.payloadString == "powered" && adapter.retain)
            for leaf in ["connection", "mode", "battery"] {
                #expect(try await snapshot.waitFor("belt/\(id)/\(leaf)").retain, "belt/\(id)/\(leaf) is retained")
            }
            await snapshot.stop()

            // Headings arrive as whole degrees and move (the virtual belt turns slowly).
            let first = try await recorder.waitFor("belt/\(id)/heading")
            try await recorder.waitFor("belt/\(id)/heading") { $0.payloadString != first.payloadString }
            for heading in recorder.messages(on: "belt/\(id)/heading") {
                let degrees = try #require(Int(heading.payloadString ?? ""))
                #expect((0..<360).contains(degrees))
                #expect(!heading.retain)
            }
            let battery = try await recorder.waitFor("belt/\(id)/battery")
            #expect(battery.payloadString?.contains("\"power\":\"battery\"") == true)

            // A mode command from a client nobody here wrote reaches the belt byte-exact and comes back retained.
            let writesBefore = belt.lineCount
            let publish = try world.launch(
                "mosquitto_pub",
                [
                    "-h", "127.0.0.1", "-p", "\(world.broker.port)", "-q", "1",
                    "-t", "belt/\(id)/cmd/mode", "-m", "app",
                ])
            _ = try await publish.waitForExit()
            try await belt.waitForLine(after: writesBefore) { $0.hasPrefix("WRITE \(Self.parameterRequest) 018103") }
            try await recorder.waitFor("belt/\(id)/mode") { $0.payloadString == "app" }
            let reply = try await recorder.waitFor("belt/\(id)/reply") {
                $0.payloadString?.contains("\"command\":\"mode\"") == true
            }
            #expect(reply.payloadString == #"{"command":"mode","ok":true}"#)

            // A malformed command gets an error reply and no GATT write; the bridge keeps serving.
            let beforeBad = belt.lineCount
            try recorder.publish("belt/\(id)/cmd/vibrate", #"{"direction":"#)
            let refused = try await recorder.waitFor("belt/\(id)/reply") {
                $0.payloadString?.contains("invalid_payload") == true
            }
            #expect(refused.payloadString?.contains("\"ok\":false") == true)
            try recorder.publish("belt/\(id)/cmd/vibrate", #"{"direction":90,"intensity":150,"transaction":"t1"}"#)
            let outOfRange = try await recorder.waitFor("belt/\(id)/reply") {
                $0.payloadString?.contains("\"t1\"") == true
            }
            #expect(outOfRange.payloadString?.contains("invalid_value") == true)
            #expect(outOfRange.payloadString?.contains("'intensity'") == true)

            // An MQTT 5 request with a response topic is answered there, with its correlation data.
            try recorder.publish(
                "belt/\(id)/cmd/vibrate", #"{"direction":90,"orientation":"angle","pattern":"navigation"}"#,
                responseTopic: "reply/dashboard", correlation: [0xC0, 0xFF, 0xEE])
            let answer = try await recorder.waitFor("reply/dashboard")
            #expect(answer.payloadString == #"{"command":"vibrate","ok":true}"#)
            #expect(answer.correlationData == [0xC0, 0xFF, 0xEE])
            try await belt.waitForLine(after: beforeBad) { $0.hasPrefix("WRITE \(Self.vibrationCommand)") }
            try await belt.caughtUp()
            let vibrations = belt.lines.dropFirst(beforeBad).filter {
                $0.text.hasPrefix("WRITE \(Self.vibrationCommand)")
            }
            #expect(vibrations.count == 1, "only the valid vibrate command may reach the belt")
            #expect(
                vibrations.first?.text == "WRITE \(Self.vibrationCommand) 0201aaaa000002" + "5a00" + "0000" + "00"
                    + "f401" + "0000" + "0000")

            // A command for a belt this gateway does not know is refused at once.
            try recorder.publish("belt/0000000000ff/cmd/mode", "app")
            let unknown = try await recorder.waitFor("belt/0000000000ff/reply")
            #expect(unknown.payloadString?.contains("not_connected") == true)

            // SIGTERM: the bridge disconnects, says offline and exits 0.
            bridge.send(SIGTERM)
            let exit = try await bridge.waitForExit(timeout: .seconds(5))
            #expect(exit == .exited(0))
            try await recorder.waitFor("gatt2mqtt/test/status") { $0.payloadString == "offline" }
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "disconnected" }
            await recorder.stop()

            // A restarted bridge brings the belt back; a late subscriber (mosquitto_sub) sees the retained state.
            _ = try await world.startBridge(gateway: "test")
            let late = try await TopicRecorder(world: world)
            try await late.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            let sub = try world.launch(
                "mosquitto_sub",
                [
                    "-h", "127.0.0.1", "-p", "\(world.broker.port)", "-v", "-C", "2",
                    "-t", "belt/\(id)/mode", "-t", "belt/\(id)/connection",
                ])
            _ = try await sub.waitForExit()
            let retained = Set(sub.lines.map(\.text))
            #expect(retained.contains("belt/\(id)/connection connected"))
            #expect(retained.contains { $0.hasPrefix("belt/\(id)/mode ") })
            await late.stop()
        }
    }
}
