import Foundation
import MQTT
import TestSupport
import Testing

/// The Node-RED example flow (examples/node-red-flow.json), its MQTT traffic replayed by a real MQTT 5
/// client (paho-mqtt, scripts/crosscheck/node_red_replay.py) against a world like the demo's: a virtual
/// belt on hci1, a virtual Activ5 on hci2, gatt2mqtt on hci0.
@Suite(.serialized)
struct NodeRedReplayTests {
    static let vibrationCommand = "0000fe03-0000-1000-8000-00805f9b34fb"
    static let script = ProjectPaths.root + "/scripts/crosscheck/node_red_replay.py"
    static let flow = ProjectPaths.root + "/examples/node-red-flow.json"
    /// The flow's vibrate payload, and what the belt receives for it: channel 2, continuous, the belt's
    /// default intensity, bearing 90, forever, 500 ms (topics.md, `vibrate`).
    static let vibratePayload = #"{"direction":90,"orientation":"bearing","pattern":"navigation","switch_to_app":true}"#
    static let vibrateWrite =
        "WRITE \(vibrationCommand) 0201aaaa000003" + "5a00" + "0000" + "00" + "f401" + "0000" + "0000"

    @Test func flowTrafficAgainstTheDemoDevices() async throws {
        try await TestWorld.with(peripheralAdapters: 2) { world in
            try await replay(in: world)
        }
    }

    /// The script checks the flow before it connects anywhere: a wire to a missing node is refused.
    @Test func brokenFlowIsRefused() async throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.flow))
        var nodes = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        let heading = try #require(
            nodes.firstIndex { $0["type"] as? String == "mqtt in" && $0["topic"] as? String == "belt/+/heading" })
        let id = try #require(nodes[heading]["id"] as? String)
        nodes[heading]["wires"] = [["0000000000000000"]]
        let broken = FileManager.default.temporaryDirectory.appendingPathComponent(
            "node-red-broken-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: nodes).write(to: broken)
        defer { try? FileManager.default.removeItem(at: broken) }

        let check = try ManagedProcess.launch(
            ProjectPaths.python,
            arguments: ["-u", Self.script, "--broker", "127.0.0.1:1", "--flow", broken.path, "--timeout", "5"],
            name: "node-red-replay")
        let exit = try await check.waitForExit(timeout: .seconds(15))
        #expect(exit == .exited(1))
        #expect(
            Self.standardOutput(of: check) == [
                "REPLAY FAIL node \(id) (mqtt in) is wired to 0000000000000000, which does not exist"
            ])
    }

    private func replay(in world: TestWorld) async throws {
        let belt = try await world.startSimulator(["belt"], adapter: "hci1")
        let activ5 = try await world.startSimulator(["a5"], adapter: "hci2")
        let beltID = try Self.id(of: belt, family: "belt")
        let a5ID = try Self.id(of: activ5, family: "a5")

        // The flow names the demo's devices, which this world's are too.
        let flow = try String(contentsOfFile: Self.flow, encoding: .utf8)
        #expect(flow.contains("belt/\(beltID)/cmd/vibrate"), "the flow commands the demo's belt \(beltID)")
        #expect(flow.contains("a5/\(a5ID)/cmd/start"), "the flow starts the demo's Activ5 \(a5ID)")

        let recorder = try await TopicRecorder(world: world)
        _ = try await world.startBridge(gateway: "demo")
        try await recorder.waitFor("belt/\(beltID)/connection", timeout: .seconds(30)) {
            $0.payloadString == "connected"
        }
        try await recorder.waitFor("a5/\(a5ID)/connection", timeout: .seconds(30)) { $0.payloadString == "connected" }

        // The script has its own hard limit (exit 2); this wait only guards against the unexpected.
        let writesBefore = belt.lineCount
        let started = ContinuousClock.now
        let replay = try world.launch(
            ProjectPaths.python,
            [
                "-u", Self.script, "--broker", "127.0.0.1:\(world.broker.port)", "--flow", Self.flow,
                "--belt", beltID, "--a5", a5ID, "--timeout", "30",
            ],
            name: "node-red-replay")
        let exit = try await replay.waitForExit(timeout: .seconds(45))
        let printed = Self.standardOutput(of: replay).filter { $0.hasPrefix("REPLAY ") }
        #expect(exit == .exited(0), "the replay failed after \(ContinuousClock.now - started):\n\(replay.outputText)")
        #expect(!printed.contains { $0.hasPrefix("REPLAY FAIL") }, "\(printed)")
        #expect(printed.last == "REPLAY OK", "\(printed)")

        // It subscribed like the flow's mqtt in nodes and sent the flow's two commands.
        #expect(
            printed.prefix(3) == [
                "REPLAY SUBSCRIBE belt/+/heading 0", "REPLAY SUBSCRIBE a5/+/force 0",
                "REPLAY SUBSCRIBE reply/nodered/# 1",
            ])
        let sent = printed.filter { $0.hasPrefix("REPLAY PUBLISH ") }
        #expect(sent.count == 2, "\(sent)")
        #expect(sent.first == "REPLAY PUBLISH a5/\(a5ID)/cmd/start {} - -")
        let request = try #require(sent.last?.split(separator: " ").map(String.init))
        #expect(request.count == 6, "\(request)")
        #expect(
            Array(request.prefix(5)) == [
                "REPLAY", "PUBLISH", "belt/\(beltID)/cmd/vibrate", Self.vibratePayload, "reply/nodered/vibrate",
            ])
        let correlation = try #require(request.last)
        // Like Node-RED's Buffer.from(msg._msgid): 16 hex digits, as ASCII.
        #expect(correlation.count == 32 && correlation.allSatisfy(\.isHexDigit), "correlation \(correlation)")

        // Headings and forces arrived, in the contract's formats.
        let headings = printed.filter { $0.hasPrefix("REPLAY HEADING ") }.compactMap { Int($0.dropFirst(15)) }
        #expect(headings.count >= 2 && headings.allSatisfy { (0..<360).contains($0) }, "\(printed)")
        let forces = printed.filter { $0.hasPrefix("REPLAY FORCE ") }.compactMap { Double($0.dropFirst(13)) }
        #expect(forces.count >= 2, "\(printed)")

        // The reply came once, on the response topic, with the request's correlation data.
        let replies = printed.filter { $0.hasPrefix("REPLAY REPLY ") }
        #expect(replies == ["REPLAY REPLY {\"command\":\"vibrate\",\"ok\":true} \(correlation)"])
        // A second subscriber saw the same reply: the script did not just agree with itself.
        let seen = try await recorder.waitFor("reply/nodered/vibrate")
        #expect(seen.payloadString == #"{"command":"vibrate","ok":true}"#)
        #expect(seen.correlationData.map { $0.map { String(format: "%02x", $0) }.joined() } == correlation)
        try await recorder.waitFor("a5/\(a5ID)/state") { $0.payloadString == "isometric" }

        // The belt received the vibrate command byte-exact, once.
        try await belt.waitForLine(after: writesBefore) { $0.hasPrefix("WRITE \(Self.vibrationCommand) ") }
        try await belt.caughtUp()
        let vibrations = belt.lines.dropFirst(writesBefore).map(\.text).filter {
            $0.hasPrefix("WRITE \(Self.vibrationCommand) ")
        }
        #expect(vibrations == [Self.vibrateWrite])
        await recorder.stop()
    }

    /// The device id (`001122334451`) from a simulator's `READY <family> <address> <name>` line.
    private static func id(of simulator: ManagedProcess, family: String) throws -> String {
        let ready = try #require(simulator.lines.first { $0.text.hasPrefix("READY \(family) ") }?.text)
        return String(ready.split(separator: " ")[2]).lowercased().replacingOccurrences(of: ":", with: "")
    }

    /// The line protocol a process printed (its logs go to standard error).
    private static func standardOutput(of process: ManagedProcess) -> [String] {
        process.lines.filter { $0.stream == .stdout }.map(\.text)
    }
}
