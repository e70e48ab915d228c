import Foundation
import MQTT
import TestSupport
import Testing

/// The bridge on MQTT 3.1.1, end to end through mosquitto, BlueZoo and a virtual belt: the broker's protocol
/// is the boundary it crosses. The other options (the command rate limit, a base topic, the allow list) are the
/// gateway's own decisions and run in memory: `GatewayOptionsTests`.
@Suite(.serialized)
struct BridgeOptionsEndToEndTests {
    /// The bridge on MQTT 3.1.1: retained state, telemetry, a command answered on `…/reply` (3.1.1 has no
    /// response topic), and a subscriber on 3.1.1 as well.
    @Test func theBridgeWorksOnMQTT311() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            var configuration = try MQTTConfiguration(url: world.broker.url)
            configuration.protocolVersion = .v311
            let recorder = try await TopicRecorder(configuration: configuration)
            let daemon = try await world.startBridge(extraArguments: ["--mqtt-version", "3.1.1"])
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/\(id)/heading")
            try recorder.publish("belt/\(id)/cmd/mode", #"{"mode":"app","transaction":"v311"}"#)
            let reply = try await recorder.waitFor("belt/\(id)/reply")
            #expect(reply.payloadString == #"{"command":"mode","ok":true,"transaction":"v311"}"#)
            try await recorder.waitFor("belt/\(id)/mode") { $0.payloadString == "app" }
            let snapshot = try await TopicRecorder(configuration: configuration)
            let retained = try await snapshot.retainedAtSubscription()
            await snapshot.stop()
            #expect(
                retained["belt/\(id)/mode"] == "app" && retained["gatt2mqtt/test/status"] == "online", "\(retained)")
            #expect(daemon.outputText.contains("protocol: 3.1.1"))
            await recorder.stop()
        }
    }
}
