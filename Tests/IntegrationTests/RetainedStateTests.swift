import Foundation
import MQTT
import TestSupport
import Testing

/// Retained state never lies: a device's live state (mode, battery, settings) goes with its link, and what
/// a crashed gateway left behind is corrected by its next start before the device is served again.
@Suite(.serialized)
struct RetainedStateTests {
    static let liveLeaves = ["mode", "battery", "intensity", "heading_offset", "compass_accuracy_signal"]

    @Test(arguments: BlueZWorld.enabled)
    func liveStateGoesWithTheLinkAndACrashIsCorrectedByTheNextStart(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let crashing = try await world.startBridge()
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            // `info` last: it names the gateway, which is how the next start knows the belt was its own.
            for leaf in ["mode", "battery", "intensity", "info"] { try await recorder.waitFor("belt/\(id)/\(leaf)") }

            // A crash: the broker publishes the gateway's will, and the belt's retained state is left as it was.
            let beforeCrash = recorder.mark
            crashing.send(SIGKILL)
            #expect(try await crashing.waitForExit() == .signalled(SIGKILL))
            let will = try await recorder.waitFor("gatt2mqtt/test/status", after: beforeCrash) {
                $0.payloadString == "offline"
            }
            #expect(will.payloadString == "offline")
            let left = try await retained(world)
            #expect(
                left["belt/\(id)/connection"] == "connected" && left["belt/\(id)/mode"] != nil,
                "the crash left stale state: \(left)")

            // The next start corrects it first: disconnected, live state cleared; then serves the belt again.
            let beforeRestart = recorder.mark
            let daemon = try await world.startBridge()
            try await daemon.waitForLine(containing: "correcting the retained state an earlier run left")
            try await recorder.waitFor("belt/\(id)/connection", after: beforeRestart) {
                $0.payloadString == "disconnected"
            }
            try await recorder.waitFor("belt/\(id)/mode", after: beforeRestart) { $0.payload.isEmpty }
            try await recorder.waitFor("belt/\(id)/connection", after: beforeRestart) {
                $0.payloadString == "connected"
            }
            try await recorder.waitFor("belt/\(id)/mode", after: beforeRestart) { !$0.payload.isEmpty }

            // The belt goes: its connection says so, its live state is gone, its info and navigation stay.
            let beforeLoss = recorder.mark
            belt.send(SIGKILL)
            try await recorder.waitFor("belt/\(id)/connection", after: beforeLoss) {
                $0.payloadString == "disconnected"
            }
            let afterLoss = try await retained(world)
            // The belt's object is still in BlueZ and every device may connect (TestWorld's `--auto-connect all`), so
            // the gateway may already be trying again: `connecting` is as true as `disconnected`, and so is
            // `handshake` (BlueZoo accepts a connection to the object of a simulator that is gone; the handshake then
            // gets no answer). `connected` is not.
            let connection = afterLoss["belt/\(id)/connection"]
            #expect(
                ["disconnected", "connecting", "handshake"].contains(connection), "\(String(describing: connection))")
            #expect(afterLoss["belt/\(id)/info"]?.contains(#""gateway":"test""#) == true)
            #expect(afterLoss["belt/\(id)/navigation"] == "stopped")
            for leaf in Self.liveLeaves {
                #expect(afterLoss["belt/\(id)/\(leaf)"] == nil, "\(leaf) is cleared: \(afterLoss)")
            }
            await recorder.stop()
        }
    }

    /// What a newcomer subscribing now would be told.
    private func retained(_ world: TestWorld) async throws -> [String: String] {
        let newcomer = try await TopicRecorder(world: world)
        defer { Task { await newcomer.stop() } }
        return try await newcomer.retainedAtSubscription()
    }
}
