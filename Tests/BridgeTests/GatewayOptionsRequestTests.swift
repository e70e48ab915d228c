import Testing

@testable import Bridge

/// `request/options`, whole but in memory (issue #46, item 2): the gateway applies at once what can change at run
/// time (which devices connect by themselves) and answers which changes wait for a restart. Checking a change as the
/// file is, and keeping it, is the daemon's (`OptionsChangeTests`); here a stand-in takes its place.
@Suite(.timeLimit(.minutes(1))) struct GatewayOptionsRequestTests {
    /// The daemon's side as the gateway sees it: every change lays `allow` over the configuration and says `health_s`
    /// changed too (which the gateway cannot apply), or refuses as the daemon does.
    struct StandIn: GatewayOptionsHandler {
        let base: BridgeConfiguration

        func change(_ options: [String: JSONValue]) async throws(CommandError) -> OptionsOutcome {
            guard case .object(let devices)? = options["devices"], case .array(let allow)? = devices["allow"] else {
                throw CommandError(.invalidValue, "devices.allow: must be a list")
            }
            var configuration = base
            configuration.autoConnect = .allowList(
                Set(allow.compactMap { if case .string(let s) = $0 { s } else { nil } }))
            configuration.settingsInEffect = .object(["devices": .object(["allow": .array(allow)])])
            return OptionsOutcome(
                configuration: configuration, changed: ["devices.allow", "health_s", "log_level"],
                appliedByDaemon: ["log_level"])
        }

        /// Refuses a backup whose options touch the broker, as the daemon does (`checkingRestored`).
        func checkRestored(_ options: [String: JSONValue]) throws(CommandError) {
            if options["broker"] != nil { throw CommandError(.invalidValue, "broker: the administrator's") }
        }
    }

    private func options(_ gateway: InMemoryGateway, _ payload: String) async throws -> String {
        let mark = gateway.probe.mark
        try gateway.publish("gatt2mqtt/test/request/options", payload)
        return await gateway.probe.next(on: "gatt2mqtt/test/response/options", after: mark).payloadString ?? ""
    }

    @Test func theAllowListChangesAtOnceAndTheAnswerSaysWhatWaitsForARestart() async throws {
        let first = InMemoryDevices.cprBand(address: "00:11:22:33:44:55")
        let second = InMemoryDevices.cprBand(address: "00:11:22:33:44:56")
        let base = { (configuration: inout BridgeConfiguration) in
            configuration.autoConnect = .allowList([first.device.address])
        }
        var made = BridgeConfiguration(mqtt: .init(host: "in-memory"), adapters: ["hci0"], gateway: "test")
        base(&made)
        let standIn = StandIn(base: made)
        try await InMemoryGateway.with(configure: base, options: standIn) { gateway in
            let firstID = await gateway.connect(first, family: "cpr")
            gateway.central.add(second)
            // The second band is not allowed: after a barrier device the first still is the only one connected.
            let answer = try await options(gateway, #"{"options":{"devices":{"allow":["00:11:22:33:44:56"]}}}"#)
            #expect(
                answer
                    == #"{"data":{"applied":["devices.allow","log_level"],"restart_required":["health_s"]},"ok":true,"request":"options"}"#
            )
            // At once: the band no longer allowed is let go, the one now allowed connects.
            let secondID = DeviceID.from(address: second.device.address)
            await gateway.probe.next(on: "cpr/\(secondID)/connection") { $0 == "connected" }
            await gateway.probe.next(on: "cpr/\(firstID)/connection") { $0 == "disconnected" }
            #expect(await !first.isConnected)
            // The info shows the settings now in effect.
            await gateway.probe.next(on: "gatt2mqtt/test/info") { $0.contains(#""allow":["00:11:22:33:44:56"]"#) }
            await gateway.log.waitForLine(containing: "options changed over MQTT")
        }
    }

    @Test func aRefusedChangeChangesNothing() async throws {
        var made = BridgeConfiguration(mqtt: .init(host: "in-memory"), adapters: ["hci0"], gateway: "test")
        made.autoConnect = .all
        try await InMemoryGateway.with(options: StandIn(base: made)) { gateway in
            let answer = try await options(gateway, #"{"options":{"devices":{"allow":"everyone"}}}"#)
            #expect(answer.contains(#""code":"invalid_value""#) && answer.contains("devices.allow: must be a list"))
            #expect(gateway.bridge.context.live.autoConnect == .all)
            let malformed = try await options(gateway, #"{"devices":{}}"#)
            #expect(malformed.contains(#""code":"invalid_value""#), "options go under 'options': \(malformed)")
        }
    }

    @Test func aGatewayWithoutTheDaemonKeepsNoOptions() async throws {
        try await InMemoryGateway.with { gateway in
            let answer = try await options(gateway, #"{"options":{"health_s":5}}"#)
            #expect(answer.contains(#""code":"invalid_state""#), "\(answer)")
        }
    }
}
