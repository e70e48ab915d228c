import Foundation
import MQTT
import TestSupport
import Testing

/// TestSupport has no test target of its own; these check the parts the MQTT tests rely on.
@Suite struct TestSupportTests {
    @Test func capturesBothStreamsLineByLine() async throws {
        let process = try ManagedProcess.launch(
            "sh", arguments: ["-c", "echo one; echo two >&2; printf 'no newline'"], environment: ["X": "1"])
        #expect(try await process.waitForExit() == .exited(0))
        #expect(Set(process.lines.map(\.description)) == ["[stdout] one", "[stderr] two", "[stdout] no newline"])
        #expect(try await process.waitForLine(containing: "one") == "one")
    }

    @Test func waitingForALineFailsAsSoonAsTheOutputEnds() async throws {
        let process = try ManagedProcess.launch("sh", arguments: ["-c", "echo bye; exit 3"])
        let started = ContinuousClock.now
        await #expect(throws: ManagedProcess.WaitFailure.self) {
            try await process.waitForLine(containing: "never", timeout: .seconds(30))
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(try await process.waitForExit() == .exited(3))
    }

    @Test func terminateEscalatesToSIGKILL() async throws {
        let process = try ManagedProcess.launch("sh", arguments: ["-c", "trap '' TERM; echo ready; sleep 30 & wait"])
        try await process.waitForLine(containing: "ready")
        #expect(await process.terminate(grace: .milliseconds(200)) == .signalled(SIGKILL))
        #expect(!process.isRunning)
    }

    @Test func persistentBrokerKeepsRetainedMessagesAcrossRestart() async throws {
        var options = MosquittoBroker.Options()
        options.persistence = true
        try await withBroker(options) { broker in
            try await broker.mosquittoPub(["-t", "kept", "-m", "yes", "-r", "-q", "1"])
            let port = broker.port
            try await broker.restart()
            #expect(broker.port == port)
            let sub = try ManagedProcess.launch(
                "mosquitto_sub", arguments: ["-h", "127.0.0.1", "-p", "\(port)", "-t", "kept", "-C", "1"])
            #expect(try await sub.waitForExit() == .exited(0))
            #expect(sub.lines.map(\.text) == ["yes"])
        }
    }
}
