import Foundation
import MQTT
import TestSupport
import Testing

@testable import Bridge

/// Gateway statuses under made-up names (issue #56): on a broker without the ACL recipe anyone can publish
/// `gatt2mqtt/<any name>/status`, and each one was a journal line (`fleet: <name> is online`): 2 000 names, 2 000
/// lines. Now the comings and goings of other gateways are logged at most 20 times a minute of each kind.
@Suite(.timeLimit(.minutes(1))) struct ForgedGatewayNamesTests {
    @Test func twoThousandForgedNamesWriteAFewLines() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-forged-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await InMemoryGateway.with(configure: GatewayFleetTests.fleet(folder, "test")) { gateway in
            let names = (0..<2000).map { "forged-\($0)" }
            for name in names { try gateway.publish("gatt2mqtt/\(name)/status", "online") }
            for name in names { try gateway.publish("gatt2mqtt/\(name)/status", "offline") }
            // A barrier: the receive path takes messages in order, and this request comes after them all.
            let mark = gateway.probe.mark
            try gateway.publish("gatt2mqtt/test/request/devices", "{}")
            await gateway.probe.next(on: "gatt2mqtt/test/response/devices", after: mark)

            let online = gateway.log.lines.filter { $0.contains("is online") }
            let left = gateway.log.lines.filter { $0.contains("left (its will)") }
            print(
                "FIGURE 2 000 forged gateway names: \(online.count) online and \(left.count) left lines (before: 2 000 each)"
            )
            #expect(online.count == 20, "\(online.count)")
            #expect(left.count == 20, "\(left.count)")
            #expect(online.first?.contains("fleet: forged-0 is online") == true, "the first ones are still said")
            // Every status still counts for the fleet: the gateway heard them all (its table keeps a bounded number).
            #expect((gateway.bridge.fleet?.coordinator.strangerTableSizes.statuses ?? 0) > 0)
        }
    }

    /// The limiter writes its lines at the level asked (a gateway coming online is no warning).
    @Test func aLimitedLineKeepsItsLevel() {
        let log = RecordingLog()
        let limiter = WarningLimiter(burst: 1, period: .seconds(60))
        for name in ["a", "b"] {
            limiter.log(.info, "fleet: \(name) is online", kind: "gateway online", metadata: [:], to: log.logger())
        }
        #expect(log.lines == ["info fleet: a is online"])
    }
}
