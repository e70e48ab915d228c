import Locks
import Testing

@testable import Bridge

/// `request/rename` (issue #58, item 1): a device's `<id>` changes at once, without a restart. Its topics move, the old
/// ones are cleared, Home Assistant's configs stay where they are (their topics are the device's identity) and point
/// at the new topics, and what users asked of it goes along. Keeping the alias is the daemon's (`OptionsChangeTests`);
/// here a stand-in lays the options' aliases over the configuration as the daemon's layers do.
@Suite(.timeLimit(.minutes(1))) struct RenameRequestTests {
    /// The daemon's side as the gateway sees it: `devices.aliases` merged over the last change (null drops one, an
    /// empty map drops all), everything else refused.
    final class StandIn: GatewayOptionsHandler {
        let base: BridgeConfiguration
        let aliases: Mutex<[String: String]>

        init(base: BridgeConfiguration) {
            self.base = base
            aliases = Mutex(base.aliases)
        }

        func change(_ options: [String: JSONValue]) async throws(CommandError) -> OptionsOutcome {
            guard case .object(let devices)? = options["devices"], case .object(let change)? = devices["aliases"],
                options.count == 1, devices.count == 1
            else { throw CommandError(.invalidValue, "only devices.aliases here") }
            let merged = aliases.withLock { aliases in
                if change.isEmpty { aliases = [:] }
                for (address, value) in change {
                    if case .string(let alias) = value { aliases[address] = alias } else { aliases[address] = nil }
                }
                return aliases
            }
            var configuration = base
            configuration.aliases = merged
            return OptionsOutcome(configuration: configuration, changed: ["devices.aliases"], appliedByDaemon: [])
        }

        func checkRestored(_ options: [String: JSONValue]) throws(CommandError) {}
    }

    private func rename(_ gateway: InMemoryGateway, _ payload: String) async throws -> String {
        let mark = gateway.probe.mark
        try gateway.publish("gatt2mqtt/test/request/rename", payload)
        return await gateway.probe.next(on: "gatt2mqtt/test/response/rename", after: mark).payloadString ?? ""
    }

    static func standIn(_ configure: (inout BridgeConfiguration) -> Void = { _ in }) -> StandIn {
        var base = BridgeConfiguration(mqtt: .init(host: "in-memory"), adapters: ["hci0"], gateway: "test")
        base.autoConnect = .all
        configure(&base)
        return StandIn(base: base)
    }

    @Test func aConnectedBeltMovesToItsNewIdAtOnce() async throws {
        let belt = InMemoryDevices.belt(address: "00:11:22:33:44:66")
        try await InMemoryGateway.with(options: Self.standIn()) { gateway in
            let old = await gateway.connect(belt, family: "belt")
            // Its info comes just after `connected`.
            await gateway.probe.next(on: "belt/\(old)/info", after: 0) { !$0.isEmpty }
            let configsBefore = gateway.broker.retainedTopics("homeassistant/device/+/config").filter {
                $0.contains(old)
            }
            #expect(!configsBefore.isEmpty)
            let mark = gateway.probe.mark

            let answer = try await rename(gateway, #"{"address":"00:11:22:33:44:66","name":"front"}"#)
            #expect(
                answer
                    == #"{"data":{"address":"00:11:22:33:44:66","from":"001122334466","to":"front"},"ok":true,"request":"rename"}"#
            )
            // The belt comes back under its new id, and tells its state there.
            await gateway.probe.next(on: "belt/front/connection", after: mark) { $0 == "connected" }
            await gateway.probe.next(on: "belt/front/info", after: mark) { $0.contains("00:11:22:33:44:66") }
            // Nothing retained is left under the old id.
            #expect(gateway.broker.retainedTopics("belt/\(old)/#") == [])
            // Home Assistant's configs are where they were (the address is the identity), now with the new topics.
            let configsAfter = gateway.broker.retainedTopics("homeassistant/device/+/config").filter {
                $0.contains(old)
            }
            #expect(configsAfter == configsBefore)
            let deviceConfig = try #require(configsAfter.first)
            let config = try #require(gateway.broker.retained(deviceConfig)?.payloadString)
            #expect(config.contains(#""state_topic":"belt/front/heading""#), "\(config)")
            #expect(config.contains(#""name":"front""#), "the device is named by its alias: \(config)")
            // No config was cleared on the way: Home Assistant would have dropped the entities.
            let cleared = gateway.probe.messages[mark...].filter {
                $0.topic.hasPrefix("homeassistant/") && $0.payload.isEmpty
            }
            #expect(cleared.isEmpty, "\(cleared.map(\.topic))")
            // Commands follow the new id (the belt is in app mode: a change of mode is seen).
            let replyMark = gateway.probe.mark
            try gateway.publish("belt/front/cmd/mode", "compass")
            await gateway.probe.next(on: "belt/front/mode", after: replyMark) { $0 == "compass" }
            await gateway.log.waitForLine(containing: "device renamed")
        }
    }

    @Test func itsAddressIsItsIdAgainWithAnEmptyName() async throws {
        let belt = InMemoryDevices.belt(address: "00:11:22:33:44:66")
        let standIn = Self.standIn { $0.aliases = ["00:11:22:33:44:66": "front"] }
        try await InMemoryGateway.with(configure: { $0.aliases = ["00:11:22:33:44:66": "front"] }, options: standIn) {
            gateway in
            let mark = gateway.probe.mark
            gateway.central.add(belt)
            await gateway.probe.next(on: "belt/front/connection", after: mark) { $0 == "connected" }
            let answer = try await rename(gateway, #"{"address":"00:11:22:33:44:66","name":""}"#)
            #expect(answer.contains(#""from":"front","to":"001122334466""#), "\(answer)")
            await gateway.probe.next(on: "belt/001122334466/connection", after: mark) { $0 == "connected" }
            #expect(gateway.broker.retainedTopics("belt/front/#") == [])
            // The options say so: the map left empty, not dropped (the file's would come back).
            #expect(standIn.aliases.withLock { $0 } == [:])
        }
    }

    @Test func whatUsersAskedOfADeviceGoesWithIt() async throws {
        let band = InMemoryDevices.cprBand(address: "00:11:22:33:44:55")
        try await InMemoryGateway.with(options: Self.standIn()) { gateway in
            let old = await gateway.connect(band, family: "cpr")
            let mark = gateway.probe.mark
            try gateway.publish("cpr/\(old)/cmd/mode", "practicing")
            await gateway.probe.next(on: "cpr/\(old)/desired", after: mark) { $0.contains("practicing") }
            _ = try await rename(gateway, #"{"address":"00:11:22:33:44:55","name":"trainer-1"}"#)
            await gateway.probe.next(on: "cpr/trainer-1/connection", after: mark) { $0 == "connected" }
            #expect(gateway.broker.retained("cpr/trainer-1/desired")?.payloadString?.contains("practicing") == true)
            #expect(gateway.broker.retainedTopics("cpr/\(old)/#") == [])
            // The band is put back in the mode it was asked for, under its new id.
            await gateway.probe.next(on: "cpr/trainer-1/mode", after: mark) { $0 == "practicing" }
        }
    }

    @Test func anAwayDeviceIsRenamedToo() async throws {
        let belt = InMemoryDevices.belt(address: "00:11:22:33:44:66")
        try await InMemoryGateway.with(options: Self.standIn()) { gateway in
            let old = await gateway.connect(belt, family: "belt")
            let mark = gateway.probe.mark
            // Let go and kept so (a `disconnect` request): the device has no session when it is renamed.
            try gateway.publish("gatt2mqtt/test/request/disconnect", #"{"address":"00:11:22:33:44:66"}"#)
            await gateway.probe.next(on: "belt/\(old)/connection", after: mark) { $0 == "disconnected" }
            let answer = try await rename(gateway, #"{"address":"00:11:22:33:44:66","name":"front"}"#)
            #expect(answer.contains(#""to":"front""#), "\(answer)")
            await gateway.log.waitForLine(containing: "device renamed")
            #expect(gateway.broker.retainedTopics("belt/\(old)/#") == [])
            // Asked for again, it connects under its new name.
            try gateway.publish("gatt2mqtt/test/request/connect", #"{"address":"00:11:22:33:44:66"}"#)
            await gateway.probe.next(on: "belt/front/connection", after: mark) { $0 == "connected" }
        }
    }

    @Test func aNameThatIsNoIdOrAnotherDevicesIsRefused() async throws {
        let standIn = Self.standIn { $0.aliases = ["00:11:22:33:44:55": "band"] }
        try await InMemoryGateway.with(configure: { $0.aliases = ["00:11:22:33:44:55": "band"] }, options: standIn) {
            gateway in
            for (payload, reason) in [
                (#"{"address":"00:11:22:33:44:66","name":"Front Belt"}"#, "lower-case letters"),
                (#"{"address":"00:11:22:33:44:66","name":"belt/+"}"#, "lower-case letters"),
                (#"{"address":"00:11:22:33:44:66","name":"001122334455"}"#, "12 hex digits"),
                (#"{"address":"00:11:22:33:44:66","name":"band"}"#, "is the id of 00:11:22:33:44:55 already"),
                (#"{"address":"00:11:22:33:44:66"}"#, "'name' is required"),
                (#"{"address":"front","name":"back"}"#, "Bluetooth address"),
            ] {
                let answer = try await rename(gateway, payload)
                #expect(answer.contains(#""code":"invalid_value""#) && answer.contains(reason), "\(payload): \(answer)")
            }
            #expect(standIn.aliases.withLock { $0 } == ["00:11:22:33:44:55": "band"], "nothing changed")
            #expect(gateway.bridge.context.live.aliases == ["00:11:22:33:44:55": "band"])
        }
    }

    @Test func itIsPrivileged() async throws {
        try await InMemoryGateway.with(
            configure: { $0.privilegedRequests = .off }, options: Self.standIn()
        ) { gateway in
            let answer = try await rename(gateway, #"{"address":"00:11:22:33:44:66","name":"front"}"#)
            #expect(answer.contains(#""code":"not_permitted""#), "\(answer)")
        }
    }
}
