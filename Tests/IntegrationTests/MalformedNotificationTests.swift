import Foundation
import Locks
import TestSupport
import Testing

/// A device that sends garbage: each malformed notification is counted on the health topic and logged;
/// nothing crashes and the rest keeps flowing.
@Suite(.serialized)
struct MalformedNotificationTests {
    static let malformed = [
        "notify fe0c 02",  // orientation, 1 byte instead of 16
        "notify fe0c -",  // empty
        "notify fe09 01",  // battery, too short
        "notify fe04 0901000101",  // button 9 does not exist
        "notify fe02 0163",  // keep-alive with mode 0x63
    ]

    @Test func garbageFromADeviceIsCountedAndLogged() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let daemon = try await world.startBridge(extraArguments: ["--health-seconds", "0.5"])
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            for line in Self.malformed { try belt.send(line: line) }

            let report = try await recorder.waitFor("gatt2mqtt/test/health") {
                $0.payloadString?.contains(#""decode_errors":5"#) == true
            }
            #expect(report.payloadString?.contains(#""belt/\#(id)":{"decode_errors":5"#) == true)
            // Each is logged: count the log lines as they are checked.
            let logged = Mutex(0)
            try await daemon.waitForLine { line in
                line.contains("malformed notification")
                    && logged.withLock {
                        $0 += 1
                        return $0
                    } == Self.malformed.count
            }
            #expect(!belt.lines.contains { $0.text.hasPrefix("ERROR") }, "the simulator sent every line")
            // Still serving: headings keep coming.
            try await recorder.waitFor("belt/\(id)/heading", after: recorder.mark)
            #expect(daemon.isRunning)
            await recorder.stop()
        }
    }
}
