import Foundation
import MQTT
import TestSupport
import Testing

@testable import Bridge

/// Issue #56, break 1: adoption that only gateways can state. Another gateway's list counts only once the fleet knows
/// that gateway (its status `online` and its heartbeats), only for `PeerAdoptions.perGatewayLimit` devices, and never
/// takes one of this gateway's places: clearing the list, or retiring the gateway, undoes it, and a join window keeps
/// every place. A device taken over from a gateway that is gone is adopted by the one that took it. In memory, with a
/// refresh of 1 s; the same forgeries against the daemon and mosquitto are `RogueAdoptionTests`.
@Suite(.timeLimit(.minutes(1))) struct FleetAdoptionTests {
    @Test func aLoneGatewayIgnoresTheListOfAGatewayItNeverSaw() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await InMemoryWorld.with { world in
            let band = InMemoryDevices.cprBand()
            let address = band.device.address
            let forged = Self.list([address])
            try world.publish("gatt2mqtt/evil/adopted", forged, retain: true)
            // A retained `online` alone makes no member: anyone may publish one, and a gateway of a fleet sends
            // heartbeats.
            try world.publish("gatt2mqtt/evil/status", "online", retain: true)
            let gateway = try await InMemoryGateway.start(
                in: world, configure: AdoptionTests.fleetMember(folder, "test"))
            try await withCleanUp({ await gateway.stop() }) {
                gateway.central.add(band)
                try world.publish("gatt2mqtt/evil/adopted", forged, retain: true)
                try world.publish("gatt2mqtt/evil/forgotten", #"{"address":"\#(address)"}"#)
                // The receive path reads in order: the answer comes after both, had they been taken.
                let answer = try await Self.request(gateway, "devices")
                #expect(answer.contains(#""address":"\#(address)","adopted":false"#), "\(answer)")
                #expect(gateway.subscriptions.filter { $0.hasSuffix("/adopted") } == ["gatt2mqtt/test/adopted"])
                #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == "[]")
                #expect(!gateway.log.lines.contains { $0.contains("evil") && $0.contains("adopt") })
                #expect(await !band.isConnected)
            }
        }
    }

    /// Four members (acted by a client, as anyone may without the ACL) each publish 300 devices: 256 of each count,
    /// one warning each says the rest do not, and none takes a place, so a join window still adopts a real band. A
    /// list cleared stops counting, and so does the list of a gateway whose retained status is cleared (retired).
    @Test func membersListsCountBoundedAndTakeNoPlace() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await InMemoryWorld.with { world in
            let gateway = try await InMemoryGateway.start(
                in: world, configure: AdoptionTests.fleetMember(folder, "test"))
            try await withCleanUp({ await gateway.stop() }) {
                let adoptions = gateway.bridge.sessions.adoptions
                let listed = "00:11:22:33:44:01"
                for member in 1...4 {
                    try Self.actMember("gw-\(member)", in: world)
                    await gateway.log.waitForLine(containing: "fleet: following the adoptions of gw-\(member)")
                    let madeUp = (0..<300).map { String(format: "0E:00:%02X:00:%02X:%02X", member, $0 / 256, $0 % 256) }
                    try world.publish(
                        "gatt2mqtt/gw-\(member)/adopted", Self.list(madeUp + (member == 1 ? [listed] : [])),
                        retain: true)
                    await gateway.log.waitForLine(
                        containing: "more devices adopted by another gateway devices=246 gateway=gw-\(member)")
                    #expect(
                        gateway.log.lines.contains {
                            $0.contains("devices=\(member == 1 ? 301 : 300) gateway=gw-\(member) limit=256")
                        })
                }
                let counts = adoptions.peers.withLock { peers in (1...4).map { peers.count(of: "gw-\($0)") } }
                #expect(counts == Array(repeating: PeerAdoptions.perGatewayLimit, count: 4))
                #expect(adoptions.contains(listed) && adoptions.contains("0E:00:04:00:00:FF"))
                #expect(!adoptions.contains("0E:00:04:00:01:2B"), "beyond the bound")
                #expect(
                    gateway.log.lines.filter { $0.contains("device adopted by another gateway") }.count
                        == 4 * Adoptions.namedPerChange)
                #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == "[]")

                let band = InMemoryDevices.cprBand()
                gateway.central.add(band)
                let joined = gateway.probe.mark
                #expect(try await Self.request(gateway, "permit_join", #"{"duration_s":60}"#).contains(#""ok":true"#))
                let own = Self.list([band.device.address])
                await gateway.probe.next(on: "gatt2mqtt/test/adopted", after: joined) { $0 == own }
                _ = try await Self.request(gateway, "permit_join", #"{"duration_s":0}"#)

                try world.publish("gatt2mqtt/gw-1/adopted", "", retain: true)
                await gateway.log.waitForLine(containing: "no longer adopted by another gateway device=\(listed)")
                #expect(!adoptions.contains(listed))
                try world.publish("gatt2mqtt/gw-2/status", "", retain: true)
                await gateway.log.waitForLine(containing: "fleet: gw-2 retired")
                #expect(!adoptions.contains("0E:00:02:00:00:00"))
                #expect(!gateway.subscriptions.contains("gatt2mqtt/gw-2/adopted"))
                #expect(gateway.subscriptions.contains("gatt2mqtt/gw-3/adopted"))
                #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == own)
            }
        }
    }

    /// gw-b adopts the belt and owns it; gw-a counts it through gw-b's list. gw-b dies: gw-a takes the belt over and
    /// adopts it then, so that it still serves it after a restart of its own while gw-b is away.
    @Test func aDeviceTakenOverFromAGatewayThatIsGoneIsAdoptedByTheOneThatTookIt() async throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await InMemoryWorld.with { world in
            let b = try await InMemoryGateway.start(
                "gw-b", in: world, adapters: ["hci1"], configure: AdoptionTests.fleetMember(folder, "gw-b"))
            let a = try await InMemoryGateway.start(
                "gw-a", in: world, adapters: ["hci0"], configure: AdoptionTests.fleetMember(folder, "gw-a"))
            try await withCleanUp({
                await a.stop()
                await b.stop()
            }) {
                let belt = InMemoryDevices.belt()
                let (address, id) = (belt.device.address, DeviceID.from(address: belt.device.address))
                b.central.add(belt, on: "hci1", rssi: -50)
                a.central.add(belt, on: "hci0", rssi: -80)
                _ = try await Self.request(b, "devices", to: "gw-b")
                #expect(
                    try await Self.request(b, "connect", #"{"address":"\#(address)"}"#, to: "gw-b").contains(
                        #""ok":true"#))
                await world.probe.next(on: "belt/\(id)/owner") { $0 == "gw-b" }
                await a.log.waitForLine(containing: "device adopted by another gateway device=\(address) family=belt")
                #expect(a.broker.retained("gatt2mqtt/gw-a/adopted")?.payloadString == "[]")

                let death = world.probe.mark
                await b.kill()
                await world.probe.next(on: "belt/\(id)/owner", after: death) { $0 == "gw-a" }
                await a.log.waitForLine(containing: "device adopted by=taken over from gateway gw-b device=\(address)")
                await world.probe.next(on: "gatt2mqtt/gw-a/adopted", after: death) {
                    $0 == Self.list([address], "belt")
                }
            }
        }
    }

    @Test func theMembersAndTheirListsAreBounded() {
        var peers = PeerAdoptions()
        let stranger = AdoptionList.parse(Array(#"[{"address":"00:00:00:00:00:01","family":"cpr"}]"#.utf8))!
        #expect(peers.replace("nobody", with: stranger) == PeerAdoptions.Change(), "no member, no list")
        #expect(peers.adopter(of: "00:00:00:00:00:01") == nil)
        let admitted = (0...PeerAdoptions.memberLimit).map { peers.admit("gw-\($0)") }
        #expect(admitted == Array(repeating: .admitted, count: PeerAdoptions.memberLimit) + [.full])
        #expect(peers.admit("gw-0") == .member)

        // Two members list one device: it counts once, and stops counting only when neither lists it.
        #expect(peers.replace("gw-0", with: stranger).counted.map(\.address) == ["00:00:00:00:00:01"])
        #expect(peers.replace("gw-1", with: stranger) == PeerAdoptions.Change())
        #expect(peers.retire("gw-0") == PeerAdoptions.Change())
        #expect(peers.adopter(of: "00:00:00:00:00:01") == "gw-1")
        #expect(peers.replace("gw-1", with: AdoptionList()).uncounted == ["00:00:00:00:00:01"])
        #expect(peers.admit("gw-\(PeerAdoptions.memberLimit)") == .admitted, "a retired member made room")
    }

    /// Acts gateway `name` of the fleet as a client can: its status `online`, retained, then a heartbeat.
    private static func actMember(_ name: String, in world: InMemoryWorld) throws {
        try world.publish("gatt2mqtt/\(name)/status", "online", retain: true)
        try world.publish("gatt2mqtt/\(name)/fleet", #"{"incarnation":1}"#)
    }

    private static func request(
        _ gateway: InMemoryGateway, _ name: String, _ payload: String = "{}", to gatewayName: String = "test"
    ) async throws -> String {
        let mark = gateway.probe.mark
        try gateway.publish("gatt2mqtt/\(gatewayName)/request/\(name)", payload)
        return await gateway.probe.next(on: "gatt2mqtt/\(gatewayName)/response/\(name)", after: mark).payloadString
            ?? ""
    }

    /// An adoption list as a gateway publishes it (sorted by address).
    private static func list(_ addresses: [String], _ family: String = "cpr") -> String {
        "[" + addresses.sorted().map { #"{"address":"\#($0)","family":"\#(family)"}"# }.joined(separator: ",") + "]"
    }

    private static func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-fleet-adoption-\(UUID().uuidString.prefix(8))"
        )
        .path
    }
}
