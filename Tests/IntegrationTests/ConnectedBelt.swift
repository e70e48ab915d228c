import TestSupport

/// A virtual belt that a bridge has connected, with a recorder of every topic on the world's broker.
struct ConnectedBelt {
    let belt: ManagedProcess
    let id: String
    let recorder: TopicRecorder
    let bridge: ManagedProcess
}

extension TestWorld {
    /// Runs `body` in a `kind` world once a belt (`gatt2mqtt-sim belt <simulator…>`) is connected by a bridge started
    /// with `bridgeArguments`; the recorder stops after it.
    static func withConnectedBelt(
        _ kind: BlueZWorld = .bluezoo, simulator: [String] = [], bridgeArguments: [String] = [],
        caller: String = #function, _ body: (TestWorld, ConnectedBelt) async throws -> Void
    ) async throws {
        try await TestWorld.with(kind, caller: caller) { world in
            let belt = try await world.startSimulator(["belt"] + simulator)
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let bridge = try await world.startBridge(extraArguments: bridgeArguments)
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try await body(world, ConnectedBelt(belt: belt, id: id, recorder: recorder, bridge: bridge))
            await recorder.stop()
        }
    }
}
