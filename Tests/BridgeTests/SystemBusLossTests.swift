import TestSupport
import Testing

@testable import Bridge

/// A lost D-Bus connection (dbus-daemon stopped or restarted) is never regained by libdbus: the gateway ends
/// with an error that names it, after saying `offline`, so that its supervisor starts it again.
@Suite(.timeLimit(.minutes(1))) struct SystemBusLossTests {
    @Test func aLostBusEndsTheGatewayWithAnErrorAfterItSaysOffline() async throws {
        try await InMemoryWorld.with { world in
            let gateway = try await InMemoryGateway.start(in: world)
            try await withCleanUp({ await gateway.stop() }) {
                #expect(world.broker.retained("gatt2mqtt/test/status")?.payloadString == "online")
                gateway.central.loseBus()
                let ended = await gateway.ended
                #expect(throws: SystemBusLost.self) { try ended.get() }
                #expect(
                    world.broker.retained("gatt2mqtt/test/status")?.payloadString == "offline", "said before it ended")
                #expect("\(SystemBusLost())".contains("lost the D-Bus system bus"))
            }
        }
    }

    @Test func aShutdownIsNoLoss() async throws {
        try await InMemoryWorld.with { world in
            let gateway = try await InMemoryGateway.start(in: world)
            await gateway.stop()
            let ended = await gateway.ended
            #expect(throws: Never.self) { try ended.get() }
        }
    }
}
