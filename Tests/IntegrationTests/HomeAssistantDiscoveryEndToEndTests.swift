import Foundation
import MQTT
import Testing
import TestSupport

/// Discovery through the broker: retained configs appear, come again when Home Assistant says
/// `online`, and go when the device is forgotten.
@Suite(.serialized)
struct HomeAssistantDiscoveryEndToEndTests {
    @Test func configsAppearAreRepublishedAndRemoved() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let address = try belt.simulatedAddress
            let id = try belt.simulatedID
            let heading = "homeassistant/sensor/fleet_belt_\(id)/heading/config"
            let recorder = try await TopicRecorder(url: world.broker.url)
            _ = try await world.startBridge()
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            // The belt's `info` follows its connection; the configs carry what it tells (they come a moment after the
            // gateway cleared its per-gateway configs, and again once `info` is in).
            let info = try await recorder.waitFor("belt/\(id)/info")
            let firmware = try #require(info.payloadString?.firstMatch(of: /"firmware":(\d+)/)?.1)
            try await recorder.waitFor(heading) { $0.payloadString?.contains(#""sw_version":"\#(firmware)""#) == true }

            // A late subscriber (as Home Assistant after a restart of its own) finds the configs retained.
            let late = try await TopicRecorder(url: world.broker.url, filter: "homeassistant/#")
            let config = try await late.waitFor(heading)
            #expect(config.retain)
            #expect(config.payloadString?.contains(#""state_topic":"belt/\#(id)/heading""#) == true)
            // The firmware the belt reported in its handshake (`info`) is the device's software version.
            #expect(config.payloadString?.contains(#""sw_version":"\#(firmware)""#) == true, "\(config.payloadString ?? "")")
            try await late.waitFor("homeassistant/binary_sensor/gatt2mqtt_test/status/config")
            await late.stop()

            // Home Assistant's birth message brings every config again.
            let mark = recorder.mark
            try recorder.client.publish(MQTTMessage(topic: "homeassistant/status", string: "online", qos: .atLeastOnce))
            try await recorder.waitFor(heading, after: mark)
            try await recorder.waitFor("homeassistant/select/fleet_belt_\(id)/mode/config", after: mark)

            // Forgetting the belt removes it from Home Assistant (empty retained payloads).
            let beforeForget = recorder.mark
            try recorder.publish("gatt2mqtt/test/request/forget", #"{"address":"\#(address)"}"#)
            try await recorder.waitFor(heading, after: beforeForget) { $0.payload.isEmpty }
            await recorder.stop()
        }
    }

    /// `homeassistant.discovery_prefix` moves the configs and the birth message Home Assistant is followed on.
    @Test func anotherDiscoveryPrefixMovesTheConfigsAndTheBirthMessage() async throws {
        try await withBridge(configuration: "homeassistant:\n  discovery_prefix: site-ha\n") { recorder, id in
            let heading = "site-ha/sensor/fleet_belt_\(id)/heading/config"
            try await recorder.waitFor(heading)
            let mark = recorder.mark
            try recorder.client.publish(MQTTMessage(topic: "site-ha/status", string: "online", qos: .atLeastOnce))
            try await recorder.waitFor(heading, after: mark)
            #expect(!recorder.messages.contains { $0.topic.hasPrefix("homeassistant/") }, "nothing under the default prefix")
        }
    }

    /// `homeassistant.enabled: false`: the device runs, and Home Assistant is told nothing.
    @Test func disabledDiscoveryAnnouncesNothing() async throws {
        try await withBridge(configuration: "homeassistant:\n  enabled: false\n") { recorder, id in
            try await recorder.waitFor("belt/\(id)/heading")
            // Configs go out when a session starts, before its connection is reported: none came.
            #expect(!recorder.messages.contains { $0.topic.hasPrefix("homeassistant/") })
        }
    }

    /// A belt served by a bridge with `configuration` as its file; `body` gets a recorder of everything once
    /// the belt is connected, and the belt's `<id>`.
    private func withBridge(configuration: String, _ body: (TopicRecorder, String) async throws -> Void) async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("g2m-\(UUID().uuidString.prefix(8)).yaml").path
            try configuration.write(toFile: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: file) }
            let recorder = try await TopicRecorder(url: world.broker.url)
            _ = try await world.startBridge(extraArguments: ["--config", file])
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try await body(recorder, id)
            await recorder.stop()
        }
    }
}
