import MQTT
import Testing

@testable import Bridge

/// Every refusal is answered, a too large one too (issue #56): the gateway asked the broker for packets of twice
/// `payload_size_limit` at most (36 KiB), so a request of 40 KiB never arrived, was never answered and never counted.
/// Now it takes 1 MiB: everything up to that on a command or request topic is answered `invalid_payload` and counted
/// in `oversized_messages`. The in-memory broker keeps back what passes a client's Maximum Packet Size, as mosquitto
/// does.
@Suite(.timeLimit(.minutes(1))) struct OversizedRequestTests {
    private func publish(_ gateway: InMemoryGateway, _ topic: String, bytes: Int, answeredOn reply: String) throws {
        try gateway.publish(
            MQTTMessage(
                topic: topic, payload: [UInt8](repeating: 0x20, count: bytes), qos: .atLeastOnce, responseTopic: reply))
    }

    /// Sends a small request after everything sent before and waits for its answer: the receive path takes
    /// messages in order, and answers a refusal on the spot, so every answer due by then is out.
    private func barrier(_ gateway: InMemoryGateway) async throws {
        let mark = gateway.probe.mark
        try publish(gateway, "gatt2mqtt/test/request/devices", bytes: 2, answeredOn: "reply/barrier")
        let answer = await gateway.probe.next(on: "reply/barrier", after: mark).payloadString ?? ""
        #expect(answer.contains(#""ok":true"#), "\(answer)")
    }

    @Test(arguments: [40 * 1024, 1 << 20])
    func aTooLargeRequestOrCommandIsAnsweredAndCounted(bytes: Int) async throws {
        try await InMemoryGateway.with { gateway in
            let id = await gateway.connect(InMemoryDevices.belt(), family: "belt")
            let limit = gateway.bridge.configuration.payloadSizeLimit
            try publish(gateway, "gatt2mqtt/test/request/devices", bytes: bytes, answeredOn: "reply/big/request")
            try publish(gateway, "belt/\(id)/cmd/mode", bytes: bytes, answeredOn: "reply/big/command")
            try await barrier(gateway)
            let request = gateway.probe.payloads(on: "reply/big/request")
            let command = gateway.probe.payloads(on: "reply/big/command")
            print("FIGURE a request of \(bytes) bytes: \(request.count) answer, \(command.count) for a command")
            #expect(
                request == [
                    #"{"error":{"code":"invalid_payload","message":"payload is \#(bytes) bytes, the limit is \#(limit)"},"ok":false,"request":"devices"}"#
                ])
            #expect(
                command.count == 1 && command[0].contains(#""code":"invalid_payload""#)
                    && command[0].contains(#""ok":false"#), "\(command)")
            #expect(gateway.bridge.counters.oversizedMessages == 2)
            #expect(gateway.log.lines.contains { $0.contains("request refused") && $0.contains("invalid_payload") })
        }
    }

    /// Beyond the packet bound the broker keeps a message back (MQTT 5 Maximum Packet Size), so nothing can answer
    /// it; the bound keeps a stranger's 256 MB payload out of the gateway's memory.
    @Test func beyondThePacketBoundTheBrokerKeepsTheMessageBack() async throws {
        try await InMemoryGateway.with { gateway in
            let bound = try #require(gateway.bridge.context.mqtt as? InMemoryBrokerClient).maximumPacketSize
            #expect(bound == Bridge.maximumPacketSize(payloadSizeLimit: gateway.bridge.configuration.payloadSizeLimit))
            try publish(gateway, "gatt2mqtt/test/request/devices", bytes: 2 << 20, answeredOn: "reply/huge")
            try await barrier(gateway)
            #expect(gateway.probe.payloads(on: "reply/huge").isEmpty)
            #expect(gateway.bridge.counters.oversizedMessages == 0)
        }
    }
}
