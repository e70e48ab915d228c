import Logging
import MQTT
import Testing

@testable import WebUI

struct TopicMirrorTests {
    private func mirror() throws -> TopicMirror {
        try TopicMirror(
            mqtt: MQTTConfiguration(host: "127.0.0.1", port: 1), gateway: "gw", baseTopic: "",
            logger: Logger(label: "test"))
    }

    /// A payload above the limit is neither parsed nor kept: the page gets its size instead. What other clients
    /// put on a shared broker must not fill the live page's memory.
    @Test func aPayloadAboveTheLimitIsKeptAsItsSizeOnly() throws {
        let mirror = try mirror()
        mirror.receive(
            MQTTMessage(
                topic: "gatt2mqtt/other/health", payload: [UInt8](repeating: 0x7B, count: 20 * 1024), retain: true))
        mirror.receive(MQTTMessage(topic: "belt/abc/mode", string: "app", retain: true))
        let snapshot = mirror.attach().snapshot
        #expect(snapshot.first { $0.topic == "gatt2mqtt/other/health" }?.payload == "(20480 bytes, not shown)")
        #expect(snapshot.first { $0.topic == "belt/abc/mode" }?.payload == "app")
    }

    /// A payload of exactly the limit is still shown.
    @Test func aPayloadAtTheLimitIsShown() throws {
        let mirror = try mirror()
        let payload = [UInt8](repeating: 0x61, count: TopicMirror.payloadLimit)
        mirror.receive(MQTTMessage(topic: "a5/abc/info", payload: payload, retain: true))
        #expect(mirror.attach().snapshot.first?.payload.utf8.count == TopicMirror.payloadLimit)
    }
}
