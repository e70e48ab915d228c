import Foundation
import MQTT
import TestSupport
import Testing

/// A broker that never hands the gateway the gateways' retained statuses (an ACL without read on
/// `gatt2mqtt/+/status`, or a broker that keeps no retained messages): the gateway cannot tell whether it is alone,
/// and must neither wait for ever nor keep quiet about it.
@Suite(.serialized)
struct UnreadableStatusesTests {
    @Test func aGatewayThatCannotReadTheStatusesSaysSoAndStillServesItsDevices() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-statuses-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Everything a gateway on its own needs, but no read on any gateway's status.
        let acl = """
            user gw
            topic write #
            topic read belt/#
            topic read gatt2mqtt/test/request/#
            topic read homeassistant/#

            user observer
            topic read #
            """
        try acl.write(toFile: folder + "/acl", atomically: true, encoding: .utf8)
        var broker = MosquittoBroker.Options()
        broker.allowAnonymous = false
        broker.users = ["gw": "pw-gw", "observer": "pw-observer"]
        broker.extraConfiguration = ["acl_file \(folder)/acl"]
        try await TestWorld.with(.bluezoo, broker: broker) { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            var observing = try MQTTConfiguration(url: world.broker.url)
            observing.username = "observer"
            observing.password = "pw-observer"
            let observer = try await TopicRecorder(configuration: observing)
            world.atStop { await observer.stop() }
            let gateway = try await world.startBridge(
                extraEnvironment: ["GATT2MQTT_MQTT_USERNAME": "gw", "GATT2MQTT_MQTT_PASSWORD": "pw-gw"])
            let warning = try await gateway.waitForLine(containing: "gatt2mqtt/+/status", timeout: .seconds(30))
            #expect(warning.contains("warning"), "\(warning)")
            try await observer.waitFor("belt/\(id)/connection", timeout: .seconds(30)) {
                $0.payloadString == "connected"
            }
        }
    }
}
