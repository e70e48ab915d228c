import MQTT
import Peripherals
import Testing

@testable import Bridge

/// The gateway's options, whole but in memory (`InMemoryGateway`): the command rate limit, a base topic and the
/// auto-connect allow list. The bridge on MQTT 3.1.1 crosses the broker's protocol and stays a process test
/// (`BridgeOptionsEndToEndTests`).
@Suite(.timeLimit(.minutes(1))) struct GatewayOptionsTests {
    /// More commands than `limits.command_rate` allows after its burst: the excess is refused with `rate_limited`
    /// and never written; every admitted one is.
    @Test func commandsBeyondTheRateLimitAreRefusedWithoutAWrite() async throws {
        try await InMemoryGateway.with(configure: { $0.commandRate = (perSecond: 1, burst: 3) }) { gateway in
            let belt = InMemoryDevices.belt()
            let id = await gateway.connect(belt, family: "belt")
            let before = await belt.writes.count
            for channel in 0..<8 {
                try gateway.publish(
                    "belt/\(id)/cmd/stop", #"{"channel":\#(channel % 4)}"#, responseTopic: "reply/test/rate/\(channel)")
            }
            var answers: [String] = []
            for channel in 0..<8 {
                answers.append(await gateway.probe.next(on: "reply/test/rate/\(channel)").payloadString ?? "")
            }
            let refused = answers.filter { $0.contains(#""code":"rate_limited""#) }
            let admitted = answers.filter { $0 == #"{"command":"stop","ok":true}"# }
            #expect(admitted.count + refused.count == 8, "\(answers)")
            #expect(refused.count >= 4, "a burst of 3 and 1 per second leave at most 4 of 8 through: \(answers)")
            // A command is answered after its write: every admitted one has been written.
            let stops = await belt.writes.dropFirst(before).filter {
                $0.characteristic == BeltGATT.Characteristic.vibrationCommand
            }
            #expect(stops.count == admitted.count)
        }
    }

    /// `base_topic`: every topic of the gateway, commands included, lives under the prefix, so a second fleet on the
    /// broker is left alone; Home Assistant's ids carry the prefix too.
    @Test func aBaseTopicPrefixesEveryTopic() async throws {
        try await InMemoryGateway.with(configure: { $0.baseTopic = "site-a/floor1" }) { gateway in
            let belt = InMemoryDevices.belt()
            let id = DeviceID.from(address: belt.device.address)
            gateway.central.add(belt)
            await gateway.probe.next(on: "site-a/floor1/belt/\(id)/connection") { $0 == "connected" }
            #expect(gateway.broker.retained("site-a/floor1/gatt2mqtt/test/status")?.payloadString == "online")
            try gateway.publish("belt/\(id)/cmd/mode", #"{"mode":"app","transaction":"other-fleet"}"#)
            try gateway.publish("site-a/floor1/belt/\(id)/cmd/mode", #"{"mode":"app","transaction":"ours"}"#)
            let reply = await gateway.probe.next(on: "site-a/floor1/belt/\(id)/reply")
            #expect(reply.payloadString == #"{"command":"mode","ok":true,"transaction":"ours"}"#)
            let configs = gateway.broker.retainedTopics("homeassistant/device/+/config").filter {
                $0.contains("_belt_")
            }
            #expect(configs.count == 1 && configs.allSatisfy { $0.contains("site-a_floor1_") }, "\(configs)")
            let config = try #require(configs.first.flatMap { gateway.broker.retained($0)?.payloadString })
            #expect(config.contains(#""state_topic":"site-a/floor1/belt/\#(id)/heading""#))
            let outside = gateway.probe.messages.filter { message in
                !message.topic.hasPrefix("site-a/floor1/") && !message.topic.hasPrefix("homeassistant/")
                    && message.topic != "belt/\(id)/cmd/mode"
            }
            #expect(outside.isEmpty, "published outside the base topic: \(outside.map(\.topic))")
            #expect(
                gateway.probe.payloads(on: "belt/\(id)/reply").isEmpty,
                "the other fleet's command was not ours to answer")
        }
    }

    /// `auto_connect` as an allow list: only the listed device connects by itself; the other is seen (listed idle
    /// and not adopted in the `devices` answer, in no retained list), never connected.
    @Test func onlyAnAllowedDeviceConnectsByItself() async throws {
        let (allowed, other) = (
            InMemoryDevices.belt(address: "00:11:22:33:44:01"), InMemoryDevices.belt(address: "00:11:22:33:44:02")
        )
        try await InMemoryGateway.with(configure: { $0.autoConnect = .allowList([allowed.device.address]) }) {
            gateway in
            gateway.central.add(other)
            await gateway.connect(allowed, family: "belt")
            let otherID = DeviceID.from(address: other.device.address)
            let mark = gateway.probe.mark
            try gateway.publish("gatt2mqtt/test/request/devices", "{}")
            let devices = await gateway.probe.next(on: "gatt2mqtt/test/response/devices", after: mark)
            #expect(
                devices.payloadString?.contains(
                    #""address":"\#(other.device.address)","adopted":false,"family":"belt","id":"\#(otherID)","name":"naviGuertel 01","paired":false,"rssi":-60,"state":"idle""#
                ) == true,
                "\(devices.payloadString ?? "")")
            #expect(
                gateway.probe.payloads(on: "gatt2mqtt/test/devices").allSatisfy { !$0.contains(other.device.address) })
            #expect(gateway.probe.payloads(on: "belt/\(otherID)/connection").isEmpty)
            #expect(await other.writes.isEmpty)
            #expect(await !other.isConnected)
        }
    }
}
