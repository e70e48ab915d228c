import MQTT
import Testing

@testable import Bridge

/// The gateway's request API and device policy, whole but in memory (`InMemoryGateway`): what requests
/// decide (who connects, who stays down, who is forgotten) and how floods of them are refused. Scanning
/// and bonding with real BlueZ stay in the process tests (`GatewayRequestTests`).
@Suite(.timeLimit(.minutes(1))) struct GatewayRequestLogicTests {
    private func request(_ gateway: InMemoryGateway, _ name: String, _ payload: String) async throws -> String {
        let mark = gateway.probe.mark
        try gateway.publish("gatt2mqtt/test/request/\(name)", payload)
        return await gateway.probe.next(on: "gatt2mqtt/test/response/\(name)", after: mark).payloadString ?? ""
    }

    /// `disconnect` takes a device down and keeps it down when it is seen again; `connect` brings it back;
    /// `forget` ends its session, removes it from BlueZ and withdraws its Home Assistant configs.
    @Test func disconnectKeepsADeviceDownConnectBringsItBackAndForgetRemovesIt() async throws {
        try await InMemoryGateway.with { gateway in
            let band = InMemoryDevices.cprBand()
            let address = band.device.address
            let id = await gateway.connect(band, family: "cpr")
            let configs = "homeassistant/device/test_cpr_\(id)/config"
            #expect(!gateway.broker.retainedTopics(configs).isEmpty, "announced to Home Assistant")

            let mark = gateway.probe.mark
            #expect(
                try await request(gateway, "disconnect", #"{"address":"\#(address)"}"#)
                    == #"{"ok":true,"request":"disconnect"}"#)
            #expect(gateway.probe.payloads(on: "cpr/\(id)/connection").last == "disconnected")
            #expect(await !band.isConnected)
            // Seen again (a new advertisement), it is not reconnected: the request took it down. A second band seen
            // after it is a barrier: the gateway follows BlueZ's events in order.
            gateway.central.add(band)
            await gateway.connect(InMemoryDevices.cprBand(address: "00:11:22:33:44:56"), family: "cpr")
            #expect(try await request(gateway, "devices", "{}").contains(#""state":"idle""#))
            #expect(
                !gateway.probe.messages.dropFirst(mark).contains {
                    $0.topic == "cpr/\(id)/connection" && $0.payloadString == "connecting"
                })

            let connected = try await request(
                gateway, "connect", #"{"address":"\#(address.lowercased())","transaction":7}"#)
            #expect(
                connected
                    == #"{"data":{"address":"\#(address)","family":"cpr","id":"\#(id)"},"ok":true,"request":"connect","transaction":7}"#
            )
            await gateway.probe.next(on: "cpr/\(id)/connection", after: mark) { $0 == "connected" }
            #expect(await band.isConnected)

            #expect(
                try await request(gateway, "forget", #"{"address":"\#(address)"}"#)
                    == #"{"ok":true,"request":"forget"}"#)
            #expect(gateway.central.removedDevices == [band.device.path])
            #expect(gateway.broker.retainedTopics(configs).isEmpty, "withdrawn from Home Assistant")
            #expect(try await request(gateway, "devices", "{}").contains(address) == false)
            #expect(try await request(gateway, "connect", #"{"address":"\#(address)"}"#).contains("unknown_device"))
        }
    }

    /// A flood of requests gets `rate_limited` answers beyond a burst of 10 (5 a second after it), and a flood of
    /// commands for devices the gateway does not have shares one bucket; the gateway answers each, and its log gets a
    /// few lines per kind of refusal, not one per message.
    @Test func floodsOfRequestsAndOfCommandsForUnknownDevicesAreRateLimited() async throws {
        try await InMemoryGateway.with { gateway in
            for index in 0..<30 {
                try gateway.publish(
                    "gatt2mqtt/test/request/devices", #"{"transaction":\#(index)}"#,
                    responseTopic: "reply/test/requests")
            }
            for index in 0..<60 {
                try gateway.publish(
                    "belt/00000000\(String(index, radix: 16))/cmd/mode", #"{"mode":"app"}"#,
                    responseTopic: "reply/test/unknown")
            }
            let requests = await payloads(gateway, "reply/test/requests", 30)
            let limited = requests.filter { $0.contains(#""code":"rate_limited""#) }
            #expect(
                limited.count >= 16,
                "at most the burst of 10 (and what refilled meanwhile) is served: \(limited.count) refused")
            #expect(requests.count - limited.count >= 4, "the first ones are served")
            let commands = await payloads(gateway, "reply/test/unknown", 60)
            #expect(
                commands.filter { $0.contains(#""code":"rate_limited""#) }.count >= 10,
                "beyond the burst of 40: refused")
            #expect(commands.filter { $0.contains(#""code":"not_connected""#) }.count >= 40)
            for (kind, code) in [
                ("request refused", "rate_limited"), ("command refused", "rate_limited"),
                ("command refused", "not_connected"),
            ] {
                let lines = gateway.log.lines.filter { $0.contains(kind) && $0.contains(code) }.count
                #expect((1...5).contains(lines), "\(kind) (\(code)): \(lines) lines")
            }
        }
    }

    /// The payloads of the first `count` messages on `topic`, once there are that many.
    private func payloads(_ gateway: InMemoryGateway, _ topic: String, _ count: Int) async -> [String] {
        while true {
            // The mark first: a message that arrives after it is waited for, none is missed.
            let mark = gateway.probe.mark
            let seen = gateway.probe.payloads(on: topic)
            if seen.count >= count { return Array(seen.prefix(count)) }
            await gateway.probe.next(on: topic, after: mark)
        }
    }
}
