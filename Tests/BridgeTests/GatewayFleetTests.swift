import Foundation
import MQTT
import Peripherals
import TestSupport
import Testing

@testable import Bridge

/// Gateways of a fleet on one broker, whole but in memory (two `InMemoryGateway`s in one `InMemoryWorld`), each
/// with an adapter of its own, both hearing one belt (gw-b 30 dB better): one owner connects it, the other leaves
/// it, a command gets one reply, and when the owner dies the other takes the belt over, navigation and all. The
/// fleet's periods are the real ones (a refresh of 1 s), so these take seconds. Real brokers, clusters and
/// bridges, and the real bluetoothd, stay in the process tests (`FleetEndToEndTests`).
@Suite(.timeLimit(.minutes(1))) struct GatewayFleetTests {
    /// Gateways in a fleet (`--fleet`: `fleet.enabled: true`) with a refresh of 1 s and an incarnation file each.
    static func fleet(_ folder: String, _ name: String) -> (inout BridgeConfiguration) -> Void {
        { configuration in
            var options = FleetOptions()
            options.joining = .always
            options.refreshInterval = .seconds(1)
            options.incarnationFile = "\(folder)/\(name)"
            options.incarnationFileChosen = true
            configuration.fleet = options
        }
    }

    /// Runs `body` with gw-b (hci1, hearing the belt at -50 dBm) and gw-a (hci0, at -80) running in one world, the
    /// belt seen by both, and `folder` holding their incarnation files; stops both afterwards.
    private func inTwoGatewayFleet(
        a configureA: (inout BridgeConfiguration) -> Void = { _ in },
        b configureB: (inout BridgeConfiguration) -> Void = { _ in },
        _ body: (InMemoryWorld, _ a: InMemoryGateway, _ b: InMemoryGateway, _ belt: InMemoryLink, _ folder: String)
            async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-fleet-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await InMemoryWorld.with { world in
            let belt = InMemoryDevices.belt()
            // gw-b first, as in the process tests: its claims are out before gw-a's listening ends.
            let b = try await InMemoryGateway.start("gw-b", in: world, adapters: ["hci1"]) {
                Self.fleet(folder, "gw-b")(&$0)
                configureB(&$0)
            }
            let a = try await InMemoryGateway.start("gw-a", in: world, adapters: ["hci0"]) {
                Self.fleet(folder, "gw-a")(&$0)
                configureA(&$0)
            }
            b.central.add(belt, on: "hci1", rssi: -50)
            a.central.add(belt, on: "hci0", rssi: -80)
            try await withCleanUp({
                await a.stop()
                await b.stop()
            }) { try await body(world, a, b, belt, folder) }
        }
    }

    /// Waits for `count` heartbeats of `gateway` after `mark`.
    private func heartbeats(_ world: InMemoryWorld, _ gateway: String, after mark: Int, count: Int) async {
        for _ in 0..<count {
            await world.probe.next(on: "gatt2mqtt/\(gateway)/fleet", after: max(mark, world.probe.mark))
        }
    }

    /// Issue #44, item 2: a fleet sweeps only what no gateway serves. gw-b serves the belt by its allow list (not
    /// adopted); gw-a, which adopts only, keeps the belt's configs because gw-b owns it, and a config of a device
    /// nobody serves goes. Home Assistant's birth makes both sweep.
    @Test func aFleetSweepsOnlyWhatNoGatewayServes() async throws {
        let belt = InMemoryDevices.belt().device.address
        try await inTwoGatewayFleet(a: { $0.autoConnect = .adopted([]) }, b: { $0.autoConnect = .allowList([belt]) }) {
            world, a, _, _, _ in
            let id = DeviceID.from(address: belt)
            let battery = "homeassistant/device/fleet_belt_\(id)/config"
            await world.probe.next(on: "belt/\(id)/owner") { $0 == "gw-b" }
            await world.probe.next(on: battery) { !$0.isEmpty }
            // gw-a has heard gw-b own the belt: two of its claims later.
            let owned = world.probe.mark
            await world.probe.next(on: "gatt2mqtt/gw-b/claim/belt/\(id)", after: owned)
            await world.probe.next(on: "gatt2mqtt/gw-b/claim/belt/\(id)", after: world.probe.mark)

            let stale = "homeassistant/sensor/fleet_belt_0000000000ff/battery/config"
            try world.publish(
                stale, HomeAssistantIdentityTests.config(node: "fleet_belt_0000000000ff", address: "00:00:00:00:00:FF"),
                retain: true)
            let birth = world.probe.mark
            try world.publish("homeassistant/status", "online")
            // The receive path reads in order: once gw-a answers a request sent after the birth, it has swept.
            try world.publish("gatt2mqtt/gw-a/request/devices", "{}")
            await world.probe.next(on: "gatt2mqtt/gw-a/response/devices", after: birth)
            await world.probe.next(on: stale, after: birth) { $0.isEmpty }
            #expect(a.log.lines.contains { $0.contains("swept retained Home Assistant configs nothing announces") })
            #expect(world.probe.payloads(on: battery).allSatisfy { !$0.isEmpty }, "nobody cleared the belt's configs")
            #expect(!a.log.lines.contains { $0.contains("device found") })
        }
    }

    @Test func theGatewayThatHearsTheBeltBestOwnsItAndAnotherTakesOverWhenItDies() async throws {
        try await inTwoGatewayFleet { world, a, b, belt, folder in
            let id = DeviceID.from(address: belt.device.address)
            await world.probe.next(on: "belt/\(id)/owner") { $0 == "gw-b" }
            await world.probe.next(on: "belt/\(id)/connection") { $0 == "connected" }
            let claim = await world.probe.next(on: "gatt2mqtt/gw-a/claim/belt/\(id)") {
                $0.contains(#""state":"candidate""#)
            }
            #expect(claim.payloadString?.contains(#""gateway":"gw-a""#) == true)
            let incarnation = try #require(
                UInt64(try String(contentsOfFile: "\(folder)/gw-a", encoding: .utf8).dropLast()))
            #expect(
                claim.payloadString?.contains(#""incarnation":\#(incarnation),"#) == true,
                "the claim carries the kept incarnation")

            // A command is answered once, by the owner; one for a device no gateway has, once too.
            let mark = world.probe.mark
            try world.publish("belt/\(id)/cmd/mode", #"{"mode":"app"}"#, responseTopic: "reply/test/fleet/owned")
            try world.publish(
                "belt/0000000000ff/cmd/mode", #"{"mode":"app"}"#, responseTopic: "reply/test/fleet/nobody")
            #expect(
                await world.probe.next(on: "reply/test/fleet/owned").payloadString == #"{"command":"mode","ok":true}"#)
            #expect(
                await world.probe.next(on: "reply/test/fleet/nobody").payloadString?.contains(
                    #""code":"not_connected""#) == true)
            // Two heartbeats of each later, both gateways have long handled both commands.
            await heartbeats(world, "gw-a", after: mark, count: 2)
            await heartbeats(world, "gw-b", after: mark, count: 2)
            #expect(world.probe.payloads(on: "reply/test/fleet/owned").count == 1)
            #expect(world.probe.payloads(on: "reply/test/fleet/nobody").count == 1)
            #expect(
                !a.log.lines.contains { $0.contains("device found") },
                "gw-a never connected the belt while gw-b owned it")

            // The owner dies (no goodbye): its will ends its claims at once, and gw-a takes the belt over.
            let death = world.probe.mark
            await b.kill()
            await a.log.waitForLine(containing: "fleet: gw-b left (its will)")
            await world.probe.next(on: "belt/\(id)/owner", after: death) { $0 == "gw-a" }
            await world.probe.next(on: "belt/\(id)/connection", after: death) { $0 == "connected" }
            await a.log.waitForLine(containing: "device found")
            #expect(await belt.isConnected)
        }
    }

    /// Desired state survives the hand-over: the new owner reads the navigation its predecessor ran from the
    /// broker (`belt/<id>/navigation`, `belt/<id>/navigation_signal`) and plays the same signal on the belt.
    @Test func aNewOwnerCarriesOnTheNavigationItsPredecessorRan() async throws {
        try await inTwoGatewayFleet { world, a, b, belt, _ in
            let id = DeviceID.from(address: belt.device.address)
            await world.probe.next(on: "belt/\(id)/connection") { $0 == "connected" }
            let before = await belt.writes.count
            try world.publish(
                "belt/\(id)/cmd/navigation", #"{"action":"start","direction":90,"signal":"navigation","intensity":40}"#,
                responseTopic: "reply/test/fleet/navigation")
            #expect(
                await world.probe.next(on: "reply/test/fleet/navigation").payloadString
                    == #"{"command":"navigation","ok":true}"#)
            await world.probe.next(on: "belt/\(id)/navigation_signal") { !$0.isEmpty }
            let signal = try #require(world.broker.retained("belt/\(id)/navigation_signal"))
            #expect(
                signal.payloadString
                    == #"{"direction":90,"intensity":40,"orientation":"bearing","signal":"navigation"}"#)
            let vibration = BeltGATT.Characteristic.vibrationCommand
            let played = try #require(await belt.writes.dropFirst(before).last { $0.characteristic == vibration })

            // gw-b dies; gw-a takes the belt and, with no word from gw-b, plays the same signal again.
            // Counted before the kill: gw-a may take the belt over before kill() returns.
            let handOver = await belt.writes.count
            let death = world.probe.mark
            await b.kill()
            await world.probe.next(on: "belt/\(id)/owner", after: death) { $0 == "gw-a" }
            await world.probe.next(on: "belt/\(id)/navigation", after: death) { $0 == "navigating" }
            // The state may be published before the signal is written (sends are coalesced, at most one per 100 ms).
            await belt.waitForWrite(played, after: handOver)
            await a.log.waitForLine(containing: "device found")

            // And it is gw-a's navigation now: a stop goes through it, and clears the signal for the next owner.
            try world.publish("belt/\(id)/cmd/navigation", "stop", responseTopic: "reply/test/fleet/stop")
            #expect(
                await world.probe.next(on: "reply/test/fleet/stop").payloadString
                    == #"{"command":"navigation","ok":true}"#)
            await world.probe.next(on: "belt/\(id)/navigation_signal", after: death) { $0.isEmpty }
            await world.probe.next(on: "belt/\(id)/navigation", after: death) { $0 == "stopped" }
            #expect(world.broker.retained("belt/\(id)/navigation_signal") == nil)
        }
    }

    /// The users' choices come first: the gateway that hears the belt best but may not connect it by itself
    /// (`auto_connect: none`) claims no free slot, so the other one owns it.
    @Test func aGatewayThatMayNotConnectTheBeltLeavesItToAnother() async throws {
        try await inTwoGatewayFleet(b: { $0.autoConnect = .none }) { world, _, b, belt, _ in
            let id = DeviceID.from(address: belt.device.address)
            await world.probe.next(on: "belt/\(id)/owner") { $0 == "gw-a" }
            await world.probe.next(on: "belt/\(id)/connection") { $0 == "connected" }
            let claim = await world.probe.next(on: "gatt2mqtt/gw-b/claim/belt/\(id)").payloadString ?? ""
            #expect(claim.contains(#""rssi":-50"#) && claim.contains(#""free_slots":0"#), "\(claim)")
            #expect(!b.log.lines.contains { $0.contains("device found") })
        }
    }
}
