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
}
