import Foundation
import MQTT
import Synchronization
import Testing
import TestSupport

/// Broker restarts with persistence on: QoS 1 commands published while the gateway is cut off wait in
/// its persistent session and are all executed, each exactly once, when it is back.
@Suite(.serialized)
struct BrokerRestartTests {
    static let vibration = "WRITE 0000fe03-0000-1000-8000-00805f9b34fb "

    @Test func noCommandIsLostOrRunTwiceAcrossFiveBrokerRestarts() async throws {
        var options = MosquittoBroker.Options()
        options.persistence = true
        let world = try await BlueZooWorld.start(broker: options)
        do {
            let belt = try await world.startSimulator(["belt"])
            let ready = try #require(belt.lines.first { $0.text.hasPrefix("READY ") }?.text)
            let id = String(ready.split(separator: " ")[2]).lowercased().replacingOccurrences(of: ":", with: "")
            let recorder = try await TopicRecorder(url: world.broker.url)
            _ = try await world.startBridge()
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            let before = belt.lineCount

            // 1000 distinct commands (direction and intensity make each one's bytes unique), 200 per round,
            // the broker restarted in the middle of each round.
            let publisher = recorder.client
            for round in 0..<5 {
                for index in 0..<200 {
                    let n = round * 200 + index
                    try publisher.publish(MQTTMessage(
                        topic: "belt/\(id)/cmd/vibrate",
                        string: #"{"direction":\#(n % 360),"intensity":\#(n / 360),"orientation":"angle","transaction":\#(n)}"#,
                        qos: .atLeastOnce))
                    if index == 100 { try await world.broker.restart() }
                }
            }
            // A last command marks the end: commands for one belt run in order.
            try publisher.publish(MQTTMessage(topic: "belt/\(id)/cmd/stop", string: #"{"transaction":"end"}"#, qos: .atLeastOnce))
            try await belt.waitForLine(after: before, timeout: .seconds(120)) { $0 == Self.vibration + "30ff" }

            let writes = belt.lines.dropFirst(before).map(\.text).filter { $0.hasPrefix(Self.vibration) && $0 != Self.vibration + "30ff" }
            #expect(writes.count == 1000, "every command executed exactly once: \(writes.count) writes")
            #expect(Set(writes).count == 1000, "no command lost and none repeated")
            await recorder.stop()
        } catch {
            await world.stop()
            throw error
        }
        await world.stop()
    }
}
