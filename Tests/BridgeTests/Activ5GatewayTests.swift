import Testing

@testable import Bridge

/// The Activ5's handshake in a whole gateway, in memory.
@Suite(.timeLimit(.minutes(1))) struct Activ5GatewayTests {
    /// The device greets the subscription to 5A01 with `TC5k` at once (`InMemoryLink` hands it over before the
    /// subscription call returns): it is heard, its firmware is in `info`, and the handshake does not sit out its 2 s
    /// timeout. The profile waits for it from before subscribing; which task runs first decides whether a wait
    /// registered after the subscription would miss it, so this test cannot force that case.
    @Test func aTC5kSentAsSoonAsTheDeviceIsSubscribedIsHeard() async throws {
        try await InMemoryGateway.with { gateway in
            let id = await gateway.connect(InMemoryDevices.activ5(), family: "a5")
            let info = await gateway.probe.next(on: "a5/\(id)/info") { !$0.isEmpty }.payloadString ?? ""
            #expect(info.contains(#""firmware":"1.00""#), "info: \(info)")
            #expect(info.contains(#""serial":"A5SIM0001""#), "info: \(info)")
            #expect(!gateway.log.lines.contains { $0.contains("no TC5k") }, "the greeting was missed")
        }
    }
}
