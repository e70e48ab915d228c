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

    /// The gateways' log lines are events: a page that opens later gets the last `logLineLimit` of them, oldest first,
    /// after every topic's last value; the log topics are among the mirror's subscriptions, with the join window's.
    @Test func theLastLogLinesAreKeptForALaterPage() throws {
        let mirror = try mirror()
        #expect(mirror.filters.contains("gatt2mqtt/+/log") && mirror.filters.contains("gatt2mqtt/+/permit_join"))
        mirror.receive(MQTTMessage(topic: "belt/abc/mode", string: "app", retain: true))
        for line in 0..<(TopicMirror.logLineLimit + 5) {
            mirror.receive(MQTTMessage(topic: "gatt2mqtt/gw\(line % 2)/log", string: #"{"message":"line \#(line)"}"#))
        }
        let snapshot = mirror.attach().snapshot
        #expect(snapshot.first?.topic == "belt/abc/mode")
        let lines = snapshot.dropFirst().map(\.payload)
        #expect(lines.count == TopicMirror.logLineLimit)
        #expect(lines.first == #"{"message":"line 5"}"#)
        #expect(lines.last == #"{"message":"line \#(TopicMirror.logLineLimit + 4)"}"#)
    }
}
