import Locks
import Peripherals
import Testing

@testable import Bridge

/// Per-device options through `request/options` (issue #58, item 2): a device's name in Home Assistant, its entities
/// enabled, disabled or hidden, and its streams on or off, taken at once by the connected device without a new session.
/// Checking and keeping the options is the daemon's (`DeviceOptionsConfigurationTests`); here a stand-in lays the three
/// maps over the configuration as the daemon's layers do.
@Suite(.timeLimit(.minutes(1))) struct DeviceOptionsRequestTests {
    static let address = "00:11:22:33:44:66"
    static let id = "001122334466"

    /// The daemon's side as the gateway sees it: `devices.names`, `devices.entities` and `devices.streaming`, each map
    /// merged over the last change (null drops an entry).
    final class StandIn: GatewayOptionsHandler {
        let base: BridgeConfiguration
        let maps = Mutex<[String: [String: String]]>([:])

        init(base: BridgeConfiguration) { self.base = base }

        func change(_ options: [String: JSONValue]) async throws(CommandError) -> OptionsOutcome {
            guard case .object(let devices)? = options["devices"], options.count == 1 else {
                throw CommandError(.invalidValue, "only devices.names, devices.entities and devices.streaming here")
            }
            let merged = maps.withLock { maps in
                for (name, value) in devices {
                    guard case .object(let entries) = value else { continue }
                    for (key, entry) in entries {
                        if case .string(let text) = entry {
                            maps[name, default: [:]][key] = text
                        } else {
                            maps[name]?[key] = nil
                        }
                    }
                }
                return maps
            }
            var configuration = base
            for (address, name) in merged["names"] ?? [:] {
                configuration.deviceOptions[address, default: .standard].name = name
            }
            for (key, choice) in merged["entities"] ?? [:] {
                let parts = key.split(separator: "/").map(String.init)
                configuration.deviceOptions[parts[0], default: .standard].entities[parts[1]] =
                    DeviceOptions.EntityChoice(rawValue: choice)
            }
            for (address, value) in merged["streaming"] ?? [:] {
                configuration.deviceOptions[address, default: .standard].streaming = value == "on"
            }
            return OptionsOutcome(
                configuration: configuration, changed: devices.keys.sorted().map { "devices.\($0)" },
                appliedByDaemon: [])
        }

        func checkRestored(_ options: [String: JSONValue]) throws(CommandError) {}
    }

    static func standIn() -> StandIn {
        var base = BridgeConfiguration(mqtt: .init(host: "in-memory"), adapters: ["hci0"], gateway: "test")
        base.autoConnect = .all
        return StandIn(base: base)
    }

    private func options(_ gateway: InMemoryGateway, _ devices: String) async throws -> String {
        let mark = gateway.probe.mark
        try gateway.publish("gatt2mqtt/test/request/options", #"{"options":{"devices":\#(devices)}}"#)
        return await gateway.probe.next(on: "gatt2mqtt/test/response/options", after: mark).payloadString ?? ""
    }

    typealias DeviceConfig = (name: String?, components: [String: JSONValue])

    /// A device config's name and components by object; none for a payload that is no device config.
    static func parse(_ payload: String) -> DeviceConfig {
        guard case .object(let config)? = JSONValue.parse(Array(payload.utf8)),
            case .object(let device)? = config["device"], case .object(let components)? = config["components"]
        else { return (nil, [:]) }
        let name: String? = if case .string(let text)? = device["name"] { text } else { nil }
        return (name, components)
    }

    private func configTopic(_ gateway: InMemoryGateway) throws -> String {
        try #require(
            gateway.broker.retainedTopics("homeassistant/device/+/config").first { $0.contains("belt_\(Self.id)") })
    }

    /// The belt's device config as the broker holds it now.
    private func deviceConfig(_ gateway: InMemoryGateway) throws -> DeviceConfig {
        Self.parse(try #require(gateway.broker.retained(try configTopic(gateway))?.payloadString))
    }

    /// The first of the belt's device configs after `mark` whose components satisfy `settled`.
    private func nextConfig(
        _ gateway: InMemoryGateway, after mark: Int, where settled: @escaping @Sendable ([String: JSONValue]) -> Bool
    ) async throws -> DeviceConfig {
        let message = await gateway.probe.next(on: try configTopic(gateway), after: mark) {
            settled(Self.parse($0).components)
        }
        return Self.parse(message.payloadString ?? "")
    }

    /// A member of a JSON object; nil for none, or for no object.
    static func member(_ name: String, of value: JSONValue) -> JSONValue? {
        if case .object(let members) = value { members[name] } else { nil }
    }

    private func heading(_ degrees: Int16, from belt: InMemoryLink) async {
        let orientation = BeltOrientation(beltHeading: degrees, boxHeading: 0, accuracy: 5)
        await belt.notify(BeltGATT.Characteristic.orientation, BeltNotification.orientation(orientation).encoded())
    }

    /// A belt connected to `gateway`, its `info` told (its Home Assistant configs are out once that is).
    private func connectedBelt(on gateway: InMemoryGateway) async -> InMemoryLink {
        let belt = InMemoryDevices.belt(address: Self.address)
        let mark = gateway.probe.mark
        _ = await gateway.connect(belt, family: "belt")
        await gateway.probe.next(on: "belt/\(Self.id)/info", after: mark) { !$0.isEmpty }
        return belt
    }

    @Test func aNameAndEntitiesReachHomeAssistantAtOnce() async throws {
        try await InMemoryGateway.with(options: Self.standIn()) { gateway in
            _ = await connectedBelt(on: gateway)
            let before = try deviceConfig(gateway)
            #expect(before.name == "naviGuertel 01", "the advertised name, nothing chosen")
            #expect(before.components["battery"] != nil)
            #expect(
                before.components["heading"].flatMap { Self.member("enabled_by_default", of: $0) } == .bool(false),
                "a fast stream")

            let mark = gateway.probe.mark
            let answer = try await options(
                gateway,
                #"{"names":{"\#(Self.address)":"Front belt"},"entities":{"\#(Self.address)/battery":"hidden","\#(Self.address)/heading":"enabled","\#(Self.address)/rssi":"enabled","\#(Self.address)/mode":"disabled"}}"#
            )
            #expect(
                answer
                    == #"{"data":{"applied":["devices.entities","devices.names"],"restart_required":[]},"ok":true,"request":"options"}"#
            )
            // Before the answer, the config that removes the hidden entity, as Home Assistant documents it: the
            // component with its platform alone. Then the config without it.
            let removing = try deviceConfig(gateway)
            let platform = before.components["battery"].flatMap { Self.member("platform", of: $0) }
            #expect(platform != nil && removing.components["battery"] == .object(["platform": platform!]))
            let after = try await nextConfig(gateway, after: mark) { $0["battery"] == nil }
            #expect(after.name == "Front belt" && removing.name == "Front belt")
            #expect(
                after.components["heading"].flatMap { Self.member("enabled_by_default", of: $0) } == nil,
                "enabled, fast stream or not")
            #expect(
                before.components["rssi"].flatMap { Self.member("enabled_by_default", of: $0) } == .bool(false)
                    && after.components["rssi"].flatMap { Self.member("enabled_by_default", of: $0) } == nil,
                "a diagnostic that comes disabled, enabled")
            #expect(
                before.components["mode"].flatMap { Self.member("enabled_by_default", of: $0) } == nil
                    && after.components["mode"].flatMap { Self.member("enabled_by_default", of: $0) } == .bool(false))
            #expect(
                Set(after.components.keys) == Set(before.components.keys).subtracting(["battery"]),
                "every other entity as before")
            // The same session: the belt never left.
            #expect(!gateway.probe.payloads(on: "belt/\(Self.id)/connection").dropFirst().contains("disconnected"))
        }
    }

    @Test func streamsOffKeepTheirValuesFromTheBrokerAndTheirEntitiesFromHomeAssistant() async throws {
        try await InMemoryGateway.with(options: Self.standIn()) { gateway in
            let belt = await connectedBelt(on: gateway)
            await heading(45, from: belt)
            await gateway.probe.next(on: "belt/\(Self.id)/heading", after: 0) { $0 == "45" }
            // The value's last publication: its orientation follows its heading, and under load it came after the
            // mark below (counted as a second orientation, once in a whole in-memory run).
            await gateway.probe.next(on: "belt/\(Self.id)/orientation", after: 0)

            let mark = gateway.probe.mark
            let off = try await options(gateway, #"{"streaming":{"\#(Self.address)":"off"}}"#)
            #expect(off.contains(#""applied":["devices.streaming"]"#))
            #expect(
                try deviceConfig(gateway).components["heading"] == .object(["platform": .string("sensor")]),
                "an entity that reads a stream, removed")
            let streamless = try await nextConfig(gateway, after: mark) { $0["heading"] == nil }.components
            #expect(streamless["battery"] != nil)
            await heading(90, from: belt)

            let onMark = gateway.probe.mark
            let on = try await options(gateway, #"{"streaming":{"\#(Self.address)":null}}"#)
            #expect(on.contains(#""ok":true"#))
            await heading(180, from: belt)
            await gateway.probe.next(on: "belt/\(Self.id)/heading", after: mark) { $0 == "180" }
            // Its orientation is published after its heading: under load it had not come yet when they were counted.
            await gateway.probe.next(on: "belt/\(Self.id)/orientation", after: mark)
            // The value sent while the streams were off went nowhere, on either of the stream's leaves.
            let headings = gateway.probe.messages.dropFirst(mark).filter { $0.topic == "belt/\(Self.id)/heading" }
            #expect(headings.map { $0.payloadString ?? "" } == ["180"])
            let orientations = gateway.probe.messages.dropFirst(mark).filter {
                $0.topic == "belt/\(Self.id)/orientation"
            }
            #expect(orientations.count == 1)
            let streaming = try await nextConfig(gateway, after: onMark) {
                $0["heading"].flatMap { Self.member("state_topic", of: $0) } != nil
            }
            #expect(streaming.components["battery"] != nil, "announced again, with every other entity")
        }
    }
}
