import Foundation
import MQTT
import Peripherals
import TestSupport
import Testing

@testable import Bridge

/// Issue #46, item 6: the broker sends a claim only to the gateways that hear its device, and to the one that answers
/// for devices nobody owns. Three gateways in memory (refresh 1 s): gw-b hears the belt, gw-a and gw-c hear nothing.
/// gw-a, first by name, listens to every claim; gw-c listens to none, so it cannot tell who owns what it does not hear:
/// it answers no command for it and sweeps none of its Home Assistant configs.
@Suite(.timeLimit(.minutes(1))) struct GatewayClaimSubscriptionTests {
    private let every = "gatt2mqtt/+/claim/+/+"

    @Test func eachGatewayListensToTheClaimsOfWhatItHearsAndTheAnswererToEveryClaim() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-claims-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await InMemoryWorld.with { world in
            let belt = InMemoryDevices.belt()
            let id = DeviceID.from(address: belt.device.address)
            let b = try await InMemoryGateway.start(
                "gw-b", in: world, adapters: ["hci1"], configure: GatewayFleetTests.fleet(folder, "gw-b"))
            // Neither keeps a device's configs for its own auto-connect policy: what they keep, they keep for the
            // fleet.
            let c = try await InMemoryGateway.start("gw-c", in: world, adapters: ["hci2"]) {
                GatewayFleetTests.fleet(folder, "gw-c")(&$0)
                $0.autoConnect = .adopted([])
            }
            let a = try await InMemoryGateway.start("gw-a", in: world, adapters: ["hci0"]) {
                GatewayFleetTests.fleet(folder, "gw-a")(&$0)
                $0.autoConnect = .adopted([])
            }
            b.central.add(belt, on: "hci1", rssi: -50)
            try await withCleanUp({
                await a.stop()
                await b.stop()
                await c.stop()
            }) {
                await world.probe.next(on: "belt/\(id)/owner") { $0 == "gw-b" }
                await world.probe.next(on: "belt/\(id)/connection") { $0 == "connected" }
                let battery = "homeassistant/device/fleet_belt_\(id)/config"
                await world.probe.next(on: battery) { !$0.isEmpty }
                // gw-a's heartbeats have come in long since (a gateway that has not heard one yet takes itself for the
                // answerer); two of gw-c's turns later, its subscriptions follow.
                for _ in 0..<2 { await world.probe.next(on: "gatt2mqtt/gw-c/fleet", after: world.probe.mark) }
                #expect(a.subscriptions.contains(every))
                #expect(b.subscriptions.contains("gatt2mqtt/+/claim/belt/\(id)") && !b.subscriptions.contains(every))
                #expect(!c.subscriptions.contains { $0.contains("/claim/") }, "\(c.subscriptions)")

                // One reply each: the owner's, and gw-a's `not_connected` for a device nobody has.
                try world.publish("belt/\(id)/cmd/mode", #"{"mode":"app"}"#, responseTopic: "reply/test/claims/owned")
                try world.publish(
                    "belt/0000000000ff/cmd/mode", #"{"mode":"app"}"#, responseTopic: "reply/test/claims/nobody")
                await world.probe.next(on: "reply/test/claims/owned")
                await world.probe.next(on: "reply/test/claims/nobody")
                let stale = "homeassistant/sensor/fleet_belt_0000000000ff/battery/config"
                try world.publish(
                    stale,
                    HomeAssistantIdentityTests.config(node: "fleet_belt_0000000000ff", address: "00:00:00:00:00:FF"),
                    retain: true)
                let birth = world.probe.mark
                try world.publish("homeassistant/status", "online")
                // The receive path reads in order: a gateway that answers a request sent after the birth has swept.
                for gateway in ["gw-a", "gw-c"] {
                    try world.publish("gatt2mqtt/\(gateway)/request/devices", "{}")
                    await world.probe.next(on: "gatt2mqtt/\(gateway)/response/devices", after: birth)
                }
                await world.probe.next(on: stale, after: birth) { $0.isEmpty }
                for gateway in ["gw-a", "gw-b", "gw-c"] {
                    for _ in 0..<2 { await world.probe.next(on: "gatt2mqtt/\(gateway)/fleet", after: world.probe.mark) }
                }
                #expect(world.probe.payloads(on: "reply/test/claims/owned").count == 1)
                #expect(world.probe.payloads(on: "reply/test/claims/nobody").count == 1)
                #expect(world.probe.payloads(on: battery).allSatisfy { !$0.isEmpty }, "gw-c kept the belt's configs")
                #expect(!c.log.lines.contains { $0.contains("swept retained Home Assistant configs") })
            }
        }
    }
}
