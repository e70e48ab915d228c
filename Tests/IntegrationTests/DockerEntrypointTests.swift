import Foundation
import TestSupport
import Testing

/// The container's start script, run outside a container (no Docker engine runs here): configured by
/// environment variables only, it starts a working bridge.
@Suite(.serialized)
struct DockerEntrypointTests {
    @Test func theEntrypointStartsTheBridgeFromTheEnvironment() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(world: world)
            _ = try world.launch(
                "/bin/sh", [ProjectPaths.root + "/docker/entrypoint.sh"], name: "entrypoint",
                extraEnvironment: [
                    "GATT2MQTT_BIN": ProjectPaths.binary("gatt2mqtt"), "GATT2MQTT_BROKER": world.broker.url,
                    "GATT2MQTT_ADAPTER": "hci0", "GATT2MQTT_GATEWAY": "docker",
                    "GATT2MQTT_CONFIG": "/nonexistent/gatt2mqtt.yaml",
                ])
            try await recorder.waitFor("gatt2mqtt/docker/status") { $0.payloadString == "online" }
            // The belt is a stranger until a join window adopts it.
            try recorder.publish("gatt2mqtt/docker/request/permit_join", "{}")
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            await recorder.stop()
        }
    }
}
