import Foundation
import MQTT
import TestSupport
import Testing

/// The fleet on a clustered broker, a suite of its own: at about a minute (three RabbitMQ nodes start, one is
/// killed and started again) it would otherwise make `FleetEndToEndTests` the BlueZoo tier's longest
/// serialized chain, while other suites run beside it.
@Suite(.serialized)
struct ClusteredBrokerFleetTests {
    /// The fleet on a real clustered broker: a three-node RabbitMQ cluster (MQTT 3.1.1; each node keeps its
    /// own retained messages), gw-a on node 1, gw-b on node 2, the test listening on node 3. Claims cross
    /// the cluster, a command gets one reply, and when gw-b's node is killed (its clients' wills die with
    /// it) gw-a takes the belt over; when the node returns, gw-b sees the newer term and lets go.
    @Test func aFleetOnAThreeNodeRabbitMQClusterHasOneOwnerAndSurvivesTheDeathOfANode() async throws {
        try await TwoGatewayWorld.run { world, folder in
            let cluster = try await RabbitMQCluster.start()
            do {
                var listening = try MQTTConfiguration(url: cluster.url(node: 2))
                listening.protocolVersion = .v311
                let recorder = try await TopicRecorder(configuration: listening)
                let v311 = ["--mqtt-version", "3.1.1"]
                let belt = try await world.startSimulator(["belt"])
                let id = try belt.simulatedID
                let a = try await world.startBridge(
                    gateway: "gw-a", adapters: ["hci0"], broker: cluster.url(node: 0),
                    extraArguments: v311 + TwoGatewayWorld.fleetArguments("gw-a", folder: folder))
                let b = try await world.startBridge(
                    gateway: "gw-b", adapters: ["hci1"], broker: cluster.url(node: 1),
                    extraArguments: v311 + TwoGatewayWorld.fleetArguments("gw-b", folder: folder))
                try await recorder.waitFor("belt/\(id)/owner") { $0.payloadString == "gw-b" }
                try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }

                // MQTT 3.1.1 has no response topic: the one reply comes on the device's reply topic.
                let mark = recorder.mark
                try recorder.publish("belt/\(id)/cmd/mode", #"{"mode":"app","transaction":"rabbit-1"}"#)
                let reply = try await recorder.waitFor("belt/\(id)/reply", after: mark) {
                    $0.payloadString?.contains("rabbit-1") == true
                }
                #expect(reply.payloadString?.contains(#""ok":true"#) == true)
                try await TwoGatewayWorld.heartbeats(recorder, "gw-a", after: mark, count: 2)
                try await TwoGatewayWorld.heartbeats(recorder, "gw-b", after: mark, count: 2)
                #expect(
                    recorder.messages(on: "belt/\(id)/reply").filter { $0.payloadString?.contains("rabbit-1") == true }
                        .count == 1)
                #expect(!a.outputText.contains("device found"), "gw-a left the belt to gw-b")

                let death = recorder.mark
                await cluster.kill(node: 1)
                try await recorder.waitFor("belt/\(id)/owner", after: death, timeout: .seconds(30)) {
                    $0.payloadString == "gw-a"
                }
                try await recorder.waitFor("belt/\(id)/connection", after: death) { $0.payloadString == "connected" }
                #expect(
                    recorder.messages(on: "gatt2mqtt/gw-b/status").allSatisfy { $0.payloadString != "offline" },
                    "a killed node publishes no will")

                try await cluster.restart(node: 1)
                try await b.waitForLine(containing: "lostConflict", timeout: .seconds(60))
                await recorder.stop()
            } catch {
                print(cluster.report())
                await cluster.stop()
                throw error
            }
            await cluster.stop()
        }
    }
}
