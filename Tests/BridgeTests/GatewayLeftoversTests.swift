import MQTT
import Testing

@testable import Bridge

/// What a crashed gateway leaves on the broker, whole but in memory: a gateway killed (its will published, nothing
/// else) leaves its belt's retained state saying `connected`; the next start corrects it before serving the belt
/// again. The same across a real bluetoothd, whose links outlive their client, runs in `RetainedStateTests`.
@Suite(.timeLimit(.minutes(1))) struct GatewayLeftoversTests {
    @Test func aCrashIsCorrectedByTheNextStartBeforeTheDeviceIsServed() async throws {
        try await InMemoryWorld.with { world in
            let belt = InMemoryDevices.belt()
            let crashing = try await InMemoryGateway.start(in: world)
            let id = await crashing.connect(belt, family: "belt")
            // `info` names the gateway: that is how the next start knows the belt was its own.
            await world.probe.next(on: "belt/\(id)/info")
            await crashing.kill()
            #expect(world.broker.retained("gatt2mqtt/test/status")?.payloadString == "offline", "the will")
            #expect(world.broker.retained("belt/\(id)/connection")?.payloadString == "connected", "stale")
            #expect(world.broker.retained("belt/\(id)/mode")?.payloadString == "app", "stale")

            let mark = world.probe.mark
            let next = try await InMemoryGateway.start(in: world)
            // Corrected before BlueZ is followed: `start` returns once the gateway runs.
            #expect(next.log.lines.contains { $0.contains("correcting the retained state an earlier run left") })
            #expect(world.broker.retained("belt/\(id)/connection")?.payloadString == "disconnected")
            #expect(world.broker.retained("belt/\(id)/mode") == nil)
            #expect(world.broker.retained("belt/\(id)/info") != nil, "info stays")

            await next.connect(belt, family: "belt")
            #expect(world.broker.retained("belt/\(id)/mode")?.payloadString == "app")
            let connection = world.probe.messages.dropFirst(mark).filter { $0.topic == "belt/\(id)/connection" }.map {
                $0.payloadString ?? ""
            }
            #expect(connection.first == "disconnected" && connection.last == "connected", "\(connection)")
            await next.stop()
        }
    }

    /// Only a `connection` a crash left is corrected: an `info` naming the gateway alone (one a stranger forged)
    /// or beside `disconnected` (a clean stop) leaves the broker as it was, with no line.
    @Test func anInfoWithoutAStaleConnectionLeavesTheBrokerAlone() async throws {
        try await InMemoryWorld.with { world in
            let forged = #"{"address":"00:11:22:33:44:66","family":"cpr","gateway":"test"}"#
            let stopped = #"{"address":"00:11:22:33:44:67","family":"cpr","gateway":"test"}"#
            try world.publish("cpr/001122334466/info", forged, retain: true)
            try world.publish("cpr/001122334467/info", stopped, retain: true)
            try world.publish("cpr/001122334467/connection", "disconnected", retain: true)
            let gateway = try await InMemoryGateway.start(in: world)
            // Corrections are published before `start` returns (the crash test above).
            #expect(!gateway.log.lines.contains { $0.contains("correcting the retained state") })
            #expect(world.broker.retained("cpr/001122334466/connection") == nil, "nothing new for a forged info")
            #expect(world.broker.retained("cpr/001122334467/connection")?.payloadString == "disconnected")
            let said = world.probe.messages.filter { $0.topic.hasSuffix("/connection") }.map(\.topic)
            #expect(said == ["cpr/001122334467/connection"], "the test's own only: \(said)")
            await gateway.stop()
        }
    }
}
