import MQTT
import Testing

@testable import Bridge

/// Home Assistant discovery, whole but in memory (`InMemoryGateway`): retained configs appear with what the
/// device told, come again when Home Assistant says `online`, go when the device is forgotten, follow the
/// discovery prefix, and are not sent when discovery is off. A real Home Assistant reads them in
/// `HomeAssistantLiveTests`.
@Suite(.timeLimit(.minutes(1))) struct GatewayHomeAssistantTests {
    @Test func configsAppearAreRepublishedAndRemoved() async throws {
        try await InMemoryGateway.with { gateway in
            let belt = InMemoryDevices.belt()
            let id = await gateway.connect(belt, family: "belt")
            let beltConfig = "homeassistant/device/test_belt_\(id)/config"
            // The belt's `info` follows its connection; the configs carry the firmware it told (they come again once
            // `info` is in).
            let info = await gateway.probe.next(on: "belt/\(id)/info").payloadString ?? ""
            #expect(info.contains(#""firmware":46"#), "\(info)")
            await gateway.probe.next(on: beltConfig) { $0.contains(#""sw_version":"46""#) }

            // Retained, for a Home Assistant that subscribes later.
            let config = try #require(gateway.broker.retained(beltConfig))
            #expect(config.payloadString?.contains(#""state_topic":"belt/\#(id)/heading""#) == true)
            #expect(gateway.broker.retained("homeassistant/device/gatt2mqtt_test/config") != nil)
            // The version the gateway's Version sensor reads, retained from the start.
            #expect(gateway.broker.retained("gatt2mqtt/test/version")?.payloadString == Gatt2MQTTVersion.current)

            // Home Assistant's birth message brings every config again.
            let mark = gateway.probe.mark
            try gateway.publish("homeassistant/status", "online")
            await gateway.probe.next(on: beltConfig, after: mark)

            // Forgetting the belt removes it from Home Assistant (empty retained payloads).
            let beforeForget = gateway.probe.mark
            try gateway.publish("gatt2mqtt/test/request/forget", #"{"address":"\#(belt.device.address)"}"#)
            await gateway.probe.next(on: beltConfig, after: beforeForget) { $0.isEmpty }
            // Every removal is out before the answer; the beltConfig's is not necessarily the last of them.
            await gateway.probe.next(on: "gatt2mqtt/test/response/forget", after: beforeForget)
            #expect(gateway.broker.retainedTopics("homeassistant/device/test_belt_\(id)/config").isEmpty)
        }
    }

    /// Issue #43, item 6: every `online` re-sent every config (20 births, 860 retained configs in 6 s). Now the first
    /// birth is answered at once and the others, all within the hold-off, are folded into one round at its end.
    @Test func twentyBirthsMakeAtMostTwoRounds() async throws {
        try await InMemoryGateway.with(configure: { $0.homeAssistant.birthHoldOff = .milliseconds(300) }) { gateway in
            let id = await gateway.connect(InMemoryDevices.belt(), family: "belt")
            let beltConfig = "homeassistant/device/test_belt_\(id)/config"
            await gateway.probe.next(on: beltConfig) { $0.contains(#""sw_version":"46""#) }
            let mark = gateway.probe.mark
            for _ in 0..<20 { try gateway.publish("homeassistant/status", "online") }
            // The receive path reads in order: once the request after the births is answered, every birth was heard.
            try gateway.publish("gatt2mqtt/test/request/devices", "{}")
            await gateway.probe.next(on: "gatt2mqtt/test/response/devices", after: mark)
            await gateway.probe.next(on: beltConfig, after: mark)
            let first = try #require(
                gateway.probe.messages.indices.dropFirst(mark).first { gateway.probe.messages[$0].topic == beltConfig })
            await gateway.probe.next(on: beltConfig, after: first + 1)
            let rounds = gateway.probe.messages.dropFirst(mark).filter { $0.topic == beltConfig }.count
            #expect(rounds == 2, "one round at once, one at the end of the hold-off")
        }
    }

    /// `homeassistant.discovery_prefix` moves the configs and the birth message Home Assistant is followed on.
    @Test func anotherDiscoveryPrefixMovesTheConfigsAndTheBirthMessage() async throws {
        try await InMemoryGateway.with(configure: { $0.homeAssistant.discoveryPrefix = "site-ha" }) { gateway in
            let id = await gateway.connect(InMemoryDevices.belt(), family: "belt")
            let beltConfig = "site-ha/device/test_belt_\(id)/config"
            await gateway.probe.next(on: beltConfig)
            let mark = gateway.probe.mark
            try gateway.publish("site-ha/status", "online")
            await gateway.probe.next(on: beltConfig, after: mark)
            #expect(
                !gateway.probe.messages.contains { $0.topic.hasPrefix("homeassistant/") },
                "nothing under the default prefix")
        }
    }

    /// `homeassistant.enabled: false`: the device runs, and Home Assistant is told nothing.
    @Test func disabledDiscoveryAnnouncesNothing() async throws {
        try await InMemoryGateway.with(configure: { $0.homeAssistant.enabled = false }) { gateway in
            let id = await gateway.connect(InMemoryDevices.belt(), family: "belt")
            // Configs go out when a session starts, before its connection is reported: none came.
            #expect(gateway.probe.payloads(on: "belt/\(id)/connection").last == "connected")
            #expect(!gateway.probe.messages.contains { $0.topic.hasPrefix("homeassistant/") })
            // Nor is Home Assistant's birth message followed.
            try gateway.publish("homeassistant/status", "online")
            try gateway.publish("gatt2mqtt/test/request/devices", "{}")
            await gateway.probe.next(on: "gatt2mqtt/test/response/devices")
            #expect(
                !gateway.probe.messages.contains {
                    $0.topic.hasPrefix("homeassistant/") && $0.topic != "homeassistant/status"
                })
        }
    }
}
