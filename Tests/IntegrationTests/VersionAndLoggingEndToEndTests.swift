import Foundation
import MQTT
import TestSupport
import Testing

/// The daemon's version and its log as an operator meets them: `--version`, lines with journal priorities when
/// standard error is the journal, and SIGHUP changing the log level without a restart.
@Suite(.serialized)
struct VersionAndLoggingEndToEndTests {
    @Test func versionPrintsTheVersionFile() async throws {
        let daemon = try ManagedProcess.launch(
            ProjectPaths.binary("gatt2mqtt"), arguments: ["--version"], name: "gatt2mqtt")
        #expect(try await daemon.waitForExit() == .exited(0))
        #expect(daemon.lines.map(\.text) == [try ProjectPaths.version()])
    }

    /// A program that cannot read its command line refuses to run, rather than start the daemon as if it had
    /// been given no flags: the Swift runtime reads it from /proc, hidden here under an empty tmpfs (as in a
    /// chroot without /proc) in a mount namespace of its own.
    @Test func withoutItsCommandLineItRefusesToRun() async throws {
        let blind = try ManagedProcess.launch(
            "unshare",
            arguments: [
                "--map-root-user", "--mount", "sh", "-c", #"mount -t tmpfs none /proc && exec "$0" --version"#,
                ProjectPaths.binary("gatt2mqtt"),
            ], name: "gatt2mqtt")
        #expect(try await blind.waitForExit() == .exited(2))
        #expect(blind.lines.map(\.text) == ["gatt2mqtt: cannot read the command line (is /proc mounted?)"])
    }

    /// What `sh -c` runs to hand the daemon a JOURNAL_STREAM naming its own standard error, as systemd does.
    private static let asIfUnderSystemd = #"JOURNAL_STREAM=$(stat -L -c %d:%i /proc/self/fd/2) exec "$0" "$@""#

    /// The line that says why the daemon stopped is at error priority or worse, so `journalctl -p err` shows it:
    /// a bus it cannot reach, and a configuration it refuses. ArgumentParser printed the first bare (info).
    @Test func whyTheDaemonStoppedIsAtErrorPriority() async throws {
        let unreachable = try ManagedProcess.launch(
            "/bin/sh",
            arguments: [
                "-c", Self.asIfUnderSystemd, ProjectPaths.binary("gatt2mqtt"), "--broker", "mqtt://127.0.0.1:1",
            ],
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/gatt2mqtt-test-bus"], name: "gatt2mqtt")
        #expect(try await unreachable.waitForExit() == .exited(1))
        let lines = unreachable.lines.map(\.text)
        for line in lines {
            #expect(
                line.range(of: #"^<[2-7]>"#, options: .regularExpression) != nil, "every line has a priority: \(line)")
        }
        let last = try #require(lines.last)
        #expect(
            last.range(of: #"^<[0-3]>"#, options: .regularExpression) != nil
                && last.contains("/nonexistent/gatt2mqtt-test-bus"), "\(lines)")

        let misconfigured = try ManagedProcess.launch(
            "/bin/sh",
            arguments: ["-c", Self.asIfUnderSystemd, ProjectPaths.binary("gatt2mqtt"), "--adapter-slots", "0"],
            name: "gatt2mqtt")
        #expect(try await misconfigured.waitForExit() == .exited(78))
        #expect(
            misconfigured.lines.map(\.text).allSatisfy { $0.hasPrefix("<3>gatt2mqtt: configuration error: ") },
            "\(misconfigured.outputText)")
        #expect(!misconfigured.lines.isEmpty)
    }

    /// dbus-daemon goes away under the running daemon (stopped, restarted, crashed): libdbus never reconnects,
    /// so it ends at once, says `offline`, and the reason is its last line, at critical. Before, it ran on
    /// without BlueZ until systemd's watchdog killed it, and in a container for ever.
    /// Runs `body` with a daemon named `gateway` on a real mosquitto and a private bus without BlueZ (started
    /// through `/bin/sh` as systemd would when `asIfUnderSystemd`), and a recorder that has seen it `online`; stops
    /// all of them afterwards.
    private func withBuslessDaemon(
        _ gateway: String, asIfUnderSystemd: Bool = false,
        _ body: (ManagedProcess, PrivateBus, TopicRecorder) async throws -> Void
    ) async throws {
        let broker = try await MosquittoBroker.start()
        let bus = try await PrivateBus.start()
        let binary = ProjectPaths.binary("gatt2mqtt")
        let arguments = ["--broker", broker.url, "--gateway", gateway]
        let daemon = try ManagedProcess.launch(
            asIfUnderSystemd ? "/bin/sh" : binary,
            arguments: asIfUnderSystemd ? ["-c", Self.asIfUnderSystemd, binary] + arguments : arguments,
            environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address], name: "gatt2mqtt")
        try await withCleanUp({
            await daemon.terminate()
            _ = try? await daemon.waitForExit()
            await bus.stop()
            await broker.stop()
        }) {
            let recorder = try await TopicRecorder(url: broker.url)
            defer { Task { await recorder.stop() } }
            // Subscribed by then: the gateway says `online` after its subscriptions.
            try await recorder.waitFor("gatt2mqtt/\(gateway)/status", timeout: .seconds(30)) {
                $0.payloadString == "online"
            }
            try await body(daemon, bus, recorder)
        }
    }

    @Test func aLostBusEndsTheDaemonWithItsReasonAtCritical() async throws {
        try await withBuslessDaemon("busless", asIfUnderSystemd: true) { daemon, bus, recorder in
            let mark = recorder.mark
            await bus.stop()
            #expect(try await daemon.waitForExit() == .exited(1))
            let last = try #require(daemon.lines.map(\.text).last)
            #expect(
                last.hasPrefix("<2>") && last.contains("stopped: lost the D-Bus system bus"), "\(daemon.outputText)")
            try await recorder.waitFor("gatt2mqtt/busless/status", after: mark, timeout: .seconds(10)) {
                $0.payloadString == "offline"
            }
        }
    }

    /// The log on the broker, as a fleet's operator reads it (`gatt2mqtt/+/log`) from a real mosquitto: a warning
    /// a stranger provokes (a malformed request) goes out as JSON at QoS 0, not retained, and the info lines of the
    /// start do not (the default `log_level_mqtt` is warning). No BlueZ is needed: the bus has none.
    @Test func warningsReachTheLogTopic() async throws {
        try await withBuslessDaemon("logged") { _, _, recorder in
            try recorder.publish("gatt2mqtt/logged/request/connect", "not json")
            let line = try await recorder.waitFor("gatt2mqtt/logged/log", timeout: .seconds(30)) {
                $0.payloadString?.contains("request refused") == true
            }
            let payload = line.payloadString ?? ""
            #expect(
                payload.hasPrefix(#"{"label":"gatt2mqtt","level":"warning","message":"request refused""#), "\(payload)")
            #expect(line.qos == .atMostOnce && !line.retain)
            let said = recorder.messages(on: "gatt2mqtt/logged/log").compactMap(\.payloadString)
            #expect(!said.contains { $0.contains(#""level":"info""#) }, "\(said)")
        }
    }

    /// systemd sets JOURNAL_STREAM to standard error's `device:inode` when that is the journal; the shell
    /// below does the same for a pipe, so the daemon must take the pipe for the journal.
    @Test func linesForTheJournalCarryTheirPriorityAndNoTimestamp() async throws {
        try await TestWorld.with { world in
            let daemon = try world.launch(
                "/bin/sh",
                [
                    "-c", Self.asIfUnderSystemd, ProjectPaths.binary("gatt2mqtt"), "--broker", world.broker.url,
                    "--adapter", world.bridgeAdapters[0],
                    "--gateway", "journal", "--log-level", "info",
                ], name: "gatt2mqtt")
            let version = try ProjectPaths.version()
            try await daemon.waitForLine(
                containing: "<6>info gatt2mqtt: configuration=none gatt2mqtt \(version) starting")
            try await daemon.waitForLine(containing: "bridge running")
            let recorder = try await TopicRecorder(world: world)
            try recorder.publish("gatt2mqtt/journal/request/connect", "not json")
            try await recorder.waitFor("gatt2mqtt/journal/response/connect")
            let warning = try await daemon.waitForLine(containing: "request refused")
            #expect(warning.hasPrefix("<4>warning gatt2mqtt: "))
            await recorder.stop()
            #expect(await daemon.terminate() == .exited(0))
            let lines = daemon.lines.map(\.text)
            #expect(!lines.isEmpty)
            for line in lines {
                #expect(
                    line.range(of: #"^<[2-7]>"#, options: .regularExpression) != nil,
                    "every line has a priority: \(line)")
                #expect(
                    line.range(of: #"\d{4}-\d\d-\d\dT\d\d:"#, options: .regularExpression) == nil,
                    "and no timestamp: \(line)")
            }
            #expect(!lines.contains { $0.hasPrefix("<7>") }, "nothing below the info level")
        }
    }

    @Test func sighupReloadsTheLogLevelAndAnythingElseWaitsForARestart() async throws {
        try await TestWorld.with { world in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent(
                "g2m-\(UUID().uuidString.prefix(8)).yaml"
            ).path
            defer { try? FileManager.default.removeItem(atPath: file) }
            try "log_level: info\n".write(toFile: file, atomically: true, encoding: .utf8)
            let daemon = try world.launch(
                ProjectPaths.binary("gatt2mqtt"),
                [
                    "--config", file, "--broker", world.broker.url, "--adapter", world.bridgeAdapters[0], "--gateway",
                    "reload",
                ], name: "gatt2mqtt")
            try await daemon.waitForLine(containing: "bridge running", timeout: .seconds(20))
            try "log_level: debug\n".write(toFile: file, atomically: true, encoding: .utf8)
            var mark = daemon.lineCount
            daemon.send(SIGHUP)
            try await daemon.waitForLine(containing: "SIGHUP: log level info → debug", after: mark)
            try "log_level: loud\n".write(toFile: file, atomically: true, encoding: .utf8)
            mark = daemon.lineCount
            daemon.send(SIGHUP)
            let refused = try await daemon.waitForLine(containing: "SIGHUP: configuration error", after: mark)
            #expect(refused.contains("log level left at debug") && refused.contains("log_level"))
            #expect(daemon.exit == nil, "SIGHUP never ends the daemon")
            #expect(await daemon.terminate() == .exited(0))
        }
    }
}
