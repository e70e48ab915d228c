import Foundation
import TestSupport
import Testing

@testable import Bridge

/// Issue #58, item 1, "the fleet told": a device renamed on one gateway of a fleet is renamed on the others that know
/// it (`gatt2mqtt/<gateway>/renamed`), so that whichever serves it uses one `<id>`. Only a member's event counts, as
/// for `…/forgotten`; one that cannot be taken here is logged and changes nothing. In memory, refresh 1 s.
@Suite(.timeLimit(.minutes(1))) struct FleetRenameTests {
    static let address = "00:11:22:33:44:66"

    @Test func aRenameOnOneGatewayIsTakenByTheOther() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await InMemoryWorld.with { world in
            let (a, aOptions) = try await Self.member("a", in: world, folder: folder)
            try await withCleanUp({ await a.stop() }) {
                let (b, bOptions) = try await Self.member("b", in: world, folder: folder)
                try await withCleanUp({ await b.stop() }) {
                    await a.log.waitForLine(containing: "fleet: following the adoptions of b")
                    await b.log.waitForLine(containing: "fleet: following the adoptions of a")
                    let mark = a.probe.mark
                    try a.publish("gatt2mqtt/a/request/rename", #"{"address":"\#(Self.address)","name":"front"}"#)
                    let answer = await a.probe.next(on: "gatt2mqtt/a/response/rename", after: mark).payloadString
                    #expect(answer?.contains(#""to":"front""#) == true, "\(answer ?? "")")
                    let told = await a.probe.next(on: "gatt2mqtt/a/renamed", after: mark)
                    #expect(told.payloadString == #"{"address":"\#(Self.address)","name":"front"}"#)
                    #expect(!told.retain)
                    await b.log.waitForLine(containing: "device renamed by another gateway")
                    #expect(b.bridge.context.live.alias(of: Self.address) == "front")
                    #expect(bOptions.aliases.withLock { $0 } == [Self.address: "front"], "kept in b's options")
                    #expect(aOptions.aliases.withLock { $0 } == [Self.address: "front"])
                    // b said nothing again: one event, a's.
                    #expect(b.probe.messages[mark...].filter { $0.topic == "gatt2mqtt/b/renamed" }.isEmpty)

                    // Back to the address's id, on b this time: a follows.
                    let back = b.probe.mark
                    try b.publish("gatt2mqtt/b/request/rename", #"{"address":"\#(Self.address)","name":""}"#)
                    await b.probe.next(on: "gatt2mqtt/b/renamed", after: back) { $0.contains(#""name":"""#) }
                    await a.log.waitForLine(
                        containing: "device renamed by another gateway device=\(Self.address) gateway=b to=001122334466"
                    )
                    #expect(a.bridge.context.live.alias(of: Self.address) == nil)
                }
            }
        }
    }

    @Test func onlyAMembersWellFormedRenameCounts() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await InMemoryWorld.with { world in
            let (gateway, options) = try await Self.member("test", in: world, folder: folder)
            try await withCleanUp({ await gateway.stop() }) {
                // Nobody runs "evil": its event is never even subscribed to.
                try world.publish("gatt2mqtt/evil/renamed", #"{"address":"\#(Self.address)","name":"evil"}"#)
                // A rename the broker kept (retained by some client) reaches the gateway when it follows the member, as
                // a retained message: no event now.
                try world.publish(
                    "gatt2mqtt/gw-1/renamed", #"{"address":"\#(Self.address)","name":"kept"}"#, retain: true)
                // A member (acted by a client) that sends a name no id may be, then a good one, then another device's
                // alias.
                try world.publish("gatt2mqtt/gw-1/status", "online", retain: true)
                try world.publish("gatt2mqtt/gw-1/fleet", #"{"incarnation":1}"#)
                await gateway.log.waitForLine(containing: "fleet: following the adoptions of gw-1")
                try world.publish("gatt2mqtt/gw-1/renamed", #"{"address":"\#(Self.address)","name":"Front Belt"}"#)
                await gateway.log.waitForLine(containing: "fleet: a gateway's rename was not taken here")
                try world.publish("gatt2mqtt/gw-1/renamed", #"{"address":"00:11:22:33:44:55","name":"band"}"#)
                await gateway.log.waitForLine(containing: "device renamed by another gateway")
                #expect(gateway.bridge.context.live.aliases == ["00:11:22:33:44:55": "band"])
                try world.publish("gatt2mqtt/gw-1/renamed", #"{"address":"\#(Self.address)","name":"band"}"#)
                await gateway.log.waitForLine(containing: "is the id of 00:11:22:33:44:55 already")
                #expect(gateway.bridge.context.live.aliases == ["00:11:22:33:44:55": "band"])
                #expect(options.aliases.withLock { $0 } == ["00:11:22:33:44:55": "band"])
                #expect(!gateway.log.lines.contains { $0.contains("evil") && $0.contains("renamed") })
            }
        }
    }

    /// A gateway of the fleet, adopting, whose options a stand-in keeps (`RenameRequestTests.StandIn`).
    private static func member(_ name: String, in world: InMemoryWorld, folder: String) async throws -> (
        InMemoryGateway, RenameRequestTests.StandIn
    ) {
        let configure = AdoptionTests.fleetMember(folder, name)
        var base = BridgeConfiguration(mqtt: .init(host: "in-memory"), adapters: ["hci0"], gateway: name)
        configure(&base)
        let options = RenameRequestTests.StandIn(base: base)
        let gateway = try await InMemoryGateway.start(name, in: world, configure: configure, options: options)
        return (gateway, options)
    }

    private static func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("g2m-fleet-rename-\(UUID().uuidString.prefix(8))")
            .path
    }
}
