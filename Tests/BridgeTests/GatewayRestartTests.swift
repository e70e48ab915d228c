import Testing

@testable import Bridge

/// `request/restart`, whole but in memory: the gateway answers, stops as for SIGTERM, and ends with
/// `RestartRequested` (the daemon's exit status 75, which its supervisor restarts). The restart under systemd is in
/// the installed tier.
@Suite(.timeLimit(.minutes(1))) struct GatewayRestartTests {
    @Test func aRestartIsAnsweredThenTheGatewayStopsCleanlyAndEndsForItsSupervisor() async throws {
        try await InMemoryGateway.with { gateway in
            let band = InMemoryDevices.cprBand()
            let id = await gateway.connect(band, family: "cpr")
            let mark = gateway.probe.mark
            try gateway.publish("gatt2mqtt/test/request/restart", #"{"transaction":7}"#)
            let answer = await gateway.probe.next(on: "gatt2mqtt/test/response/restart", after: mark)
            #expect(
                answer.payloadString == #"{"data":{"restarting":true},"ok":true,"request":"restart","transaction":7}"#)

            let ended = await gateway.ended
            #expect(throws: RestartRequested.self) { try ended.get() }
            // Stopped as for SIGTERM: the device let go, `offline` said, after the answer.
            #expect(await !band.isConnected)
            #expect(gateway.probe.payloads(on: "cpr/\(id)/connection").last == "disconnected")
            #expect(gateway.broker.retained("gatt2mqtt/test/status")?.payloadString == "offline")
            let order = gateway.probe.messages.dropFirst(mark).map(\.topic)
            #expect(
                order.firstIndex(of: "gatt2mqtt/test/response/restart")! < order.lastIndex(of: "gatt2mqtt/test/status")!
            )
            await gateway.log.waitForLine(containing: "restart requested over MQTT")
        }
    }

    @Test func aRestartWithFieldsIsRefusedAndTheGatewayKeepsRunning() async throws {
        try await InMemoryGateway.with { gateway in
            let mark = gateway.probe.mark
            try gateway.publish("gatt2mqtt/test/request/restart", #"{"delay_s":5}"#)
            let answer = await gateway.probe.next(on: "gatt2mqtt/test/response/restart", after: mark)
            #expect(answer.payloadString?.contains(#""code":"invalid_value""#) == true, "\(answer.payloadString ?? "")")
            // Still serving: a device connects.
            await gateway.connect(InMemoryDevices.cprBand(), family: "cpr")
            #expect(gateway.broker.retained("gatt2mqtt/test/status")?.payloadString == "online")
        }
    }
}
