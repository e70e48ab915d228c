import Foundation
import TestSupport
import Testing

@testable import Bridge

/// The retained `gatt2mqtt/<gateway>/info`, whole but in memory (issue #46, item 1): what an operator reads of a
/// gateway without a shell on it, published at start and again on every change.
@Suite(.timeLimit(.minutes(1))) struct GatewayInfoTests {
    private static func info(_ message: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(message.utf8)) as? [String: Any])
    }

    @Test func theInfoSaysVersionStartSettingsAdaptersAndNoFleet() async throws {
        let settings = JSONValue.object([
            "log_level": .string("info"), "broker": .object(["password": .string("set")]),
        ])
        try await InMemoryGateway.with(adapters: ["hci0", "hci1"], configure: { $0.settingsInEffect = settings }) {
            gateway in
            // Once BlueZ is followed the adapters are known: the info says so again.
            let text = try #require(
                await gateway.probe.next(on: "gatt2mqtt/test/info") { $0.contains(#""hci1":"powered""#) }
                    .payloadString)
            let info = try Self.info(text)
            #expect(info["gateway"] as? String == "test")
            #expect(info["version"] as? String == Gatt2MQTTVersion.current)
            #expect(info["fleet"] as? String == "off")
            #expect(info["adapters"] as? [String: String] == ["hci0": "powered", "hci1": "powered"])
            #expect((info["settings"] as? [String: Any])?["log_level"] as? String == "info")
            let started = try #require(info["started"] as? String)
            let startedAt = try #require(try? Date(started, strategy: .iso8601))
            #expect(abs(startedAt.timeIntervalSinceNow) < 60, "started now: \(started)")
            #expect(gateway.broker.retained("gatt2mqtt/test/info")?.payloadString == text, "retained")
            // Published on a change only: as many infos as different ones.
            let published = gateway.probe.payloads(on: "gatt2mqtt/test/info")
            #expect(Set(published).count == published.count, "\(published)")
        }
    }

    @Test func theInfoFollowsTheGatewaysPartInAFleet() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-info-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func fleet(_ name: String) -> (inout BridgeConfiguration) -> Void {
            { configuration in
                var options = FleetOptions()
                options.refreshInterval = .seconds(1)
                options.incarnationFile = "\(folder)/\(name)"
                options.incarnationFileChosen = true
                configuration.fleet = options
            }
        }
        try await InMemoryWorld.with { world in
            let a = try await InMemoryGateway.start("gw-a", in: world, configure: fleet("gw-a"))
            try await withCleanUp({ await a.stop() }) {
                await world.probe.next(on: "gatt2mqtt/gw-a/info") { $0.contains(#""fleet":"alone""#) }
                let b = try await InMemoryGateway.start("gw-b", in: world, adapters: ["hci1"], configure: fleet("gw-b"))
                let member = try await withCleanUp({ await b.stop() }) {
                    await world.probe.next(on: "gatt2mqtt/gw-a/info") { $0.contains(#""fleet":"member""#) }
                }
                #expect(member.payloadString?.contains(#""gateway":"gw-a""#) == true, "gw-a's own info says it")
            }
        }
    }
}
