import Foundation
import MQTT
import TestSupport
import Testing

/// The navigation API over MQTT, against the virtual belt.
@Suite(.serialized)
struct BeltNavigationEndToEndTests {
    static let fe03 = "WRITE 0000fe03-0000-1000-8000-00805f9b34fb "
    static let fe05 = "WRITE 0000fe05-0000-1000-8000-00805f9b34fb "
    /// Channel 2, continuous, default intensity, bearing, forever, 500 ms: the navigation signal without its direction.
    static func navigationSignal(bearing: UInt16) -> String {
        "0201aaaa000003" + String(format: "%02x%02x", bearing & 0xFF, bearing >> 8) + "000000f40100000000"
    }

    @Test(arguments: BlueZWorld.enabled)
    func navigationStartsCoalescesPausesByButtonAndIsRestoredAfterALoss(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            var belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/\(id)/navigation") { $0.payloadString == "stopped" }

            // Start: app mode first, then (once the belt confirms app) the signal on channel 2.
            try recorder.publish("belt/\(id)/cmd/navigation", #"{"action":"start","direction":90}"#)
            try await belt.waitForLine { $0 == Self.fe05 + "01810300" }
            try await belt.waitForLine { $0 == Self.fe03 + Self.navigationSignal(bearing: 90) }
            try await recorder.waitFor("belt/\(id)/navigation") { $0.payloadString == "navigating" }
            try await recorder.waitFor("belt/\(id)/reply") {
                $0.payloadString == #"{"command":"navigation","ok":true}"#
            }

            // Three updates in a burst: the last one always arrives, and what reaches the wire is some of them in the
            // order sent, none twice. How many are coalesced depends on how far apart the bridge gets them (sends at
            // most one per 100 ms): on a loaded machine the three can come 100 ms apart and all go out, which is
            // right. The 100 ms rule itself is BeltNavigationTests', on a clock the test sets.
            let beforeBurst = belt.lineCount
            let bearings = [100, 110, 120]
            for bearing in bearings {
                try recorder.publish("belt/\(id)/cmd/navigation", #"{"action":"update","direction":\#(bearing)}"#)
            }
            try await belt.waitForLine(after: beforeBurst) { $0 == Self.fe03 + Self.navigationSignal(bearing: 120) }
            let burst = belt.lines.dropFirst(beforeBurst).map(\.text).filter { $0.hasPrefix(Self.fe03) }
            let sent = bearings.map { Self.fe03 + Self.navigationSignal(bearing: UInt16($0)) }
            #expect(
                burst.last == sent.last && burst.count <= sent.count
                    && burst.allSatisfy(sent.contains) && burst == sent.filter(burst.contains),
                "a subsequence of the updates, ending with the last: \(burst)")

            // The belt's pause button in app mode pauses navigation: the bridge puts the belt in pause. (Pressed once
            // the burst is through: a press on a timer came before it on a slow machine.)
            let beforeButton = belt.lineCount
            try belt.send(line: "button pause short")
            try await belt.waitForLine(after: beforeButton) { $0 == Self.fe05 + "01810400" }
            try await recorder.waitFor("belt/\(id)/navigation") { $0.payloadString == "paused" }

            // Resume over MQTT: app mode and the last signal again.
            let beforeResume = (belt: belt.lineCount, mqtt: recorder.mark)
            try recorder.publish("belt/\(id)/cmd/navigation", "resume")
            try await recorder.waitFor("belt/\(id)/navigation", after: beforeResume.mqtt) {
                $0.payloadString == "navigating"
            }
            try await belt.waitForLine(after: beforeResume.belt) { $0 == Self.fe05 + "01810300" }
            try await belt.waitForLine(after: beforeResume.belt) {
                $0 == Self.fe03 + Self.navigationSignal(bearing: 120)
            }

            // Paused again over MQTT, then resumed by the belt's Home button, as FSLib does.
            let beforePause = recorder.mark
            try recorder.publish("belt/\(id)/cmd/navigation", "pause")
            try await recorder.waitFor("belt/\(id)/mode", after: beforePause) { $0.payloadString == "pause" }
            let beforeHome = (belt: belt.lineCount, mqtt: recorder.mark)
            try belt.send(line: "button home short")
            try await recorder.waitFor("belt/\(id)/event", after: beforeHome.mqtt) { $0.payloadString == "home_button" }
            try await recorder.waitFor("belt/\(id)/navigation", after: beforeHome.mqtt) {
                $0.payloadString == "navigating"
            }
            try await belt.waitForLine(after: beforeHome.belt) { $0 == Self.fe05 + "01810300" }
            try await belt.waitForLine(after: beforeHome.belt) { $0 == Self.fe03 + Self.navigationSignal(bearing: 120) }

            // The belt goes away and comes back: navigation is restored (app mode and the signal).
            let beforeLoss = recorder.mark
            try await world.kill(belt)
            try await recorder.waitFor("belt/\(id)/connection", after: beforeLoss) {
                $0.payloadString == "disconnected"
            }
            belt = try await world.startSimulator(["belt"])
            try await belt.waitForLine(timeout: .seconds(30)) { $0 == Self.fe05 + "01810300" }
            try await belt.waitForLine { $0 == Self.fe03 + Self.navigationSignal(bearing: 120) }

            #expect(recorder.messages(on: "belt/\(id)/navigation").last?.payloadString == "navigating")

            // Stop: the belt goes back to wait.
            let beforeStop = recorder.mark
            try recorder.publish("belt/\(id)/cmd/navigation", #"{"action":"stop"}"#)
            try await belt.waitForLine { $0 == Self.fe05 + "01810100" }
            try await recorder.waitFor("belt/\(id)/navigation", after: beforeStop) { $0.payloadString == "stopped" }

            // A one-shot signal and a refused navigation request.
            try recorder.publish("belt/\(id)/cmd/notify", #"{"type":"warning","critical":true}"#)
            try await belt.waitForLine { $0 == Self.fe03 + "0003aaaa0000001111000003bc0200000100" }
            try recorder.publish(
                "belt/\(id)/cmd/navigation", #"{"action":"start","direction":90,"signal":"destination_reached"}"#)
            let refused = try await recorder.waitFor("belt/\(id)/reply") {
                $0.payloadString?.contains("cannot guide navigation") == true
            }
            #expect(refused.payloadString?.contains("invalid_value") == true)
            await recorder.stop()
        }
    }

    /// FSLib keeps navigation without a belt: started and changed while the belt is away, it is accepted
    /// (`"applied":false`), published, and applied when the belt connects.
    @Test(arguments: BlueZWorld.enabled)
    func navigationSetWhileTheBeltIsAwayIsAppliedOnConnect(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            var belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            let beforeLoss = recorder.mark
            try await world.kill(belt)
            try await recorder.waitFor("belt/\(id)/connection", after: beforeLoss) {
                $0.payloadString == "disconnected"
            }

            try recorder.publish(
                "belt/\(id)/cmd/navigation", #"{"action":"start","direction":90}"#,
                responseTopic: "reply/test/nav/start")
            #expect(
                try await recorder.waitFor("reply/test/nav/start").payloadString
                    == #"{"applied":false,"command":"navigation","ok":true}"#)
            try await recorder.waitFor("belt/\(id)/navigation", after: beforeLoss) { $0.payloadString == "navigating" }
            try recorder.publish(
                "belt/\(id)/cmd/navigation", #"{"action":"update","direction":120}"#,
                responseTopic: "reply/test/nav/update")
            #expect(
                try await recorder.waitFor("reply/test/nav/update").payloadString
                    == #"{"applied":false,"command":"navigation","ok":true}"#)

            belt = try await world.startSimulator(["belt"])
            try await belt.waitForLine(timeout: .seconds(30)) { $0 == Self.fe05 + "01810300" }
            try await belt.waitForLine { $0 == Self.fe03 + Self.navigationSignal(bearing: 120) }
            #expect(
                !belt.lines.contains { $0.text == Self.fe03 + Self.navigationSignal(bearing: 90) },
                "only the latest signal is applied")
            await recorder.stop()
        }
    }

    /// Navigation is what users asked for, and outlives the gateway too: after a crash the restarted gateway
    /// reads it back from the broker (`navigation`, `navigation_signal`) and plays it again.
    @Test(arguments: BlueZWorld.enabled)
    func navigationSurvivesACrashOfTheGateway(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let bridge = try await world.startBridge()
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try recorder.publish(
                "belt/\(id)/cmd/navigation", #"{"action":"start","direction":90}"#,
                responseTopic: "reply/test/nav/start")
            #expect(
                try await recorder.waitFor("reply/test/nav/start").payloadString
                    == #"{"command":"navigation","ok":true}"#)
            try await belt.waitForLine { $0 == Self.fe03 + Self.navigationSignal(bearing: 90) }

            bridge.send(SIGKILL)
            _ = try await bridge.waitForExit()
            let restart = belt.lineCount
            let mark = recorder.mark
            _ = try await world.startBridge()
            try await recorder.waitFor("belt/\(id)/connection", after: mark, timeout: .seconds(40)) {
                $0.payloadString == "connected"
            }
            try await belt.waitForLine(after: restart, timeout: .seconds(20)) {
                $0 == Self.fe03 + Self.navigationSignal(bearing: 90)
            }
            try await recorder.waitFor("belt/\(id)/navigation", after: mark) { $0.payloadString == "navigating" }
            await recorder.stop()
        }
    }
}
