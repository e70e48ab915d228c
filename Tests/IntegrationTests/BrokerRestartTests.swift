import Foundation
import MQTT
import Synchronization
import TestSupport
import Testing

/// Broker restarts with persistence on: QoS 1 commands published while the gateway is cut off wait in
/// its persistent session and are all executed, each exactly once, when it is back.
@Suite(.serialized)
struct BrokerRestartTests {
    static let vibration = "WRITE 0000fe03-0000-1000-8000-00805f9b34fb "

    @Test func noCommandIsLostOrRunTwiceAcrossFiveBrokerRestarts() async throws {
        var options = MosquittoBroker.Options()
        options.persistence = true
        // The gateway is away for most of the 1 000 commands, and mosquitto keeps at most 1 000 messages
        // (max_queued_messages) for an offline client, its own retained state among them: beyond that it
        // drops them. A broker for a fleet is set up for its queue; this one is too.
        options.extraConfiguration = ["max_queued_messages 5000"]
        try await TestWorld.with(broker: options) { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(world: world)
            // 1000 commands in a few seconds: far above the default rate limit, on purpose.
            let limits = try TemporaryConfiguration("limits: {command_rate: 10000, command_burst: 100000}\n")
            let daemon = try await world.startBridge(extraArguments: ["--config", limits.path])
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            let before = belt.lineCount

            // 1000 distinct commands (direction and intensity make each one's bytes unique), 200 per round,
            // the broker restarted in the middle of each round.
            let publisher = recorder.client
            /// The sender is a client like any other: while its own connection is down it waits and sends again.
            func send(_ message: MQTTMessage) async throws {
                while true {
                    do {
                        return try publisher.publish(message)
                    } catch MQTTError.notConnected {
                        try await publisher.connected(timeout: .seconds(30))
                    }
                }
            }
            for round in 0..<5 {
                for index in 0..<200 {
                    let n = round * 200 + index
                    try await send(
                        MQTTMessage(
                            topic: "belt/\(id)/cmd/vibrate",
                            string:
                                #"{"direction":\#(n % 360),"intensity":\#(n / 360),"orientation":"angle","switch_to_app":true,"transaction":\#(n)}"#,
                            qos: .atLeastOnce))
                    if index == 100 { try await world.broker.restart() }
                }
            }
            // A last command marks the end: commands for one belt run in order. Like any at-least-once sender,
            // the test sends it again until it shows; its transaction makes the bridge run it once.
            let end = MQTTMessage(topic: "belt/\(id)/cmd/stop", string: #"{"transaction":"end"}"#, qos: .atLeastOnce)
            do {
                var attempts = 0
                while true {
                    attempts += 1
                    try await send(end)
                    do {
                        try await belt.waitForLine(after: before, timeout: .seconds(20)) {
                            $0 == Self.vibration + "30ff"
                        }
                        break
                    } catch  where attempts < 6 {
                        continue
                    }
                }
            } catch {
                let writes = belt.lines.dropFirst(before).filter { $0.text.hasPrefix(Self.vibration) }.count
                let refusals = recorder.messages(on: "belt/\(id)/reply").compactMap(\.payloadString).filter {
                    $0.contains(#""ok":false"#)
                }
                let clues = daemon.lines.map(\.text).filter {
                    $0.contains("stop") || $0.contains("dropped") || $0.contains("repeated")
                }
                Issue.record(
                    "\(writes) writes arrived; \(refusals.count) refusals, e.g. \(refusals.prefix(3)); bridge: \(clues.suffix(5))"
                )
                throw error
            }

            let writes = belt.lines.dropFirst(before).map(\.text).filter {
                $0.hasPrefix(Self.vibration) && $0 != Self.vibration + "30ff"
            }
            #expect(
                belt.lines.dropFirst(before).filter { $0.text == Self.vibration + "30ff" }.count == 1,
                "the end marker ran once")
            #expect(writes.count == 1000, "every command executed exactly once: \(writes.count) writes")
            #expect(Set(writes).count == 1000, "no command lost and none repeated")
            await recorder.stop()
        }
    }
}
