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

    /// A child whose environment names no state directory gets an empty one of its own as systemd's
    /// STATE_DIRECTORY, gatt2mqtt's default, rather than the machine's /var/lib/gatt2mqtt; it is gone once the
    /// child has ended. One that names its own keeps it.
    @Test func aChildGetsAStateDirectoryOfItsOwn() async throws {
        let script = #"echo "$STATE_DIRECTORY"; ls -A "$STATE_DIRECTORY" | wc -l"#
        let process = try ManagedProcess.launch("sh", arguments: ["-c", script])
        #expect(try await process.waitForExit() == .exited(0))
        let lines = process.lines.map(\.text)
        let folder = try #require(lines.first)
        #expect(folder.hasPrefix(FileManager.default.temporaryDirectory.path), "\(folder)")
        #expect(lines.dropFirst().first == "0", "it starts empty")
        #expect(!FileManager.default.fileExists(atPath: folder), "removed when the child has ended")
        let chosen = try ManagedProcess.launch(
            "sh", arguments: ["-c", #"echo "${STATE_DIRECTORY:-none}""#],
            environment: ["GATT2MQTT_STATE_DIRECTORY": "/nonexistent/chosen"])
        #expect(try await chosen.waitForExit() == .exited(0))
        #expect(
            chosen.lines.first?.text != folder && chosen.lines.first?.text.contains("gatt2mqtt-child-state") == false)
    }

    /// A failed world's report lists the gateways' output first: CI shows the lines after a failure, and those say
    /// most. The others keep the order they started in.
    @Test func aFailedWorldsReportStartsWithTheGateways() {
        let order = TestWorld.gatewaysFirst(
            ["bluezoo", "sim-hci1", "gatt2mqtt", "mosquitto_sub", "gatt2mqtt-other"], named: { $0 })
        #expect(order == ["gatt2mqtt", "gatt2mqtt-other", "bluezoo", "sim-hci1", "mosquitto_sub"])
    }

    /// The report follows the error's own line, which scripts/test lists under "what failed" as it was.
    @Test func aReportedFailureSaysTheErrorFirst() {
        let failure = ReportedFailure(WorldFailure(description: "timed out"), report: "=== the world\n--- gatt2mqtt")
        #expect(failure.description.split(separator: "\n").first == "timed out")
        #expect(failure.description.hasSuffix("--- gatt2mqtt"))
    }

    /// The copy of a child's output is written through a close-on-exec descriptor: other children, spawned
    /// later by suites running in parallel, must not hold the log open.
    @Test func aChildsLogFileIsCloseOnExec() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("log-\(UUID().uuidString).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = try ManagedProcess.launch(
            "sh", arguments: ["-c", "echo logged; sleep 30"], logFile: path)
        try await process.waitForLine(containing: "logged")
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { name in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")) == path
                ? Int32(name) : nil
        }
        #expect(descriptors.count == 1, "\(descriptors)")
        for descriptor in descriptors { #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0) }
        _ = await process.terminate()
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

    /// Home Assistant's complaint comes with its traceback, which names the cause; lines of other entries stay out.
    @Test func aComplaintFromHomeAssistantsLogKeepsItsTraceback() {
        let log = """
            2026-12-05 12:27:29.900 INFO (MainThread) [homeassistant.components.mqtt.discovery] Found new component
            2026-12-05 12:27:30.135 ERROR (MainThread) [homeassistant.helpers.dispatcher] Exception in setup
            Traceback (most recent call last):
              File "entity.py", line 333, in _async_setup_entity_entry_from_discovery
            KeyError: 'x'
            2026-12-05 12:27:31.000 WARNING (MainThread) [aiohttp_fast_zlib] zlib_ng and isal are not available
            2026-12-05 12:27:32.000 INFO (MainThread) [homeassistant.core] Starting
            """
        let complaints = HomeAssistantInstance.complaints(in: log, ignoring: ["zlib_ng"])
        #expect(complaints.count == 1)
        #expect(complaints.first?.hasSuffix("KeyError: 'x'") == true, "\(complaints)")
        #expect(complaints.first?.contains("Exception in setup\nTraceback") == true)
    }
}
