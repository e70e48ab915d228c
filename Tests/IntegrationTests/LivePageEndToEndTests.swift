import Foundation
import MQTT
import TestSupport
import Testing

/// The live page and `/metrics` (`--http`) against a connected virtual belt: Debian's headless Chromium
/// drives the page (Selenium), a raw-socket probe sends what careless and hostile clients send, and the
/// Prometheus project's own parser reads `/metrics`.
@Suite(.serialized)
struct LivePageEndToEndTests {
    static let crosscheck = ProjectPaths.root + "/scripts/crosscheck"
    /// `{"direction":180,"pattern":"critical_warning"}` on FE03 (BeltCommandsEndToEndTests has the same bytes).
    static let vibration = (
        payload: #"{"direction":180,"pattern":"critical_warning"}"#,
        write: "WRITE 0000fe03-0000-1000-8000-00805f9b34fb 0003aaaa0000001111000003bc0200000100"
    )

    /// A connected belt and a bridge serving its page on a free loopback port; `base` is the page's address.
    private func withPage(
        _ kind: BlueZWorld, extraArguments: [String] = [], caller: String = #function,
        _ body: (TestWorld, ManagedProcess, ManagedProcess, TopicRecorder, String, String) async throws -> Void
    ) async throws {
        try await TestWorld.with(kind, caller: caller) { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let base = "http://127.0.0.1:\(try FreePort.allocate())"
            let bridge = try await world.startBridge(
                extraArguments: ["--http", String(base.dropFirst(7))] + extraArguments)
            try await bridge.waitForLine(containing: "live page on \(base)/", timeout: .seconds(20))
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try await body(world, bridge, belt, recorder, id, base)
            await recorder.stop()
        }
    }

    /// scripts/crosscheck/live_page_check.py in headless Chromium against the page at `base`, on the belt's card, with
    /// `arguments` after those every check takes; the lines it printed (the test fails unless it exits 0).
    private func checkInBrowser(
        _ world: TestWorld, base: String, id: String, screenshot: String, _ arguments: [String]
    ) async throws -> [String] {
        let browser = try world.launch(
            ProjectPaths.python,
            [
                "-u", Self.crosscheck + "/live_page_check.py", "--url", base + "/", "--device", "belt/\(id)",
                "--screenshot", screenshot, "--expect-ok", "--timeout", "60",
            ] + arguments, name: "browser")
        let exit = try await browser.waitForExit(timeout: .seconds(150))
        let printed = browser.lines.map(\.text)
        #expect(exit == .exited(0), "\(printed.joined(separator: "\n"))")
        return printed
    }

    private static func screenshotPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("live-page-\(UUID().uuidString).png").path
    }

    private func send(_ recorder: TopicRecorder, _ topic: String, _ payload: String, tag: String) async throws
        -> String?
    {
        try recorder.publish(topic, payload, responseTopic: "reply/test/replies/\(tag)", correlation: Array(tag.utf8))
        return try await recorder.waitFor("reply/test/replies/\(tag)").payloadString
    }

    @Test(arguments: BlueZWorld.enabled)
    func inTheBrowserTheHeadingMovesAndAVibrationFromTheFormReachesTheBelt(_ kind: BlueZWorld) async throws {
        // The gateway's card sends options below; the test's broker takes anyone, so they are switched on.
        try await withPage(kind, extraArguments: ["--requests-privileged", "true"]) {
            world, _, belt, recorder, id, base in
            // Repeated patterns play only in app mode: the belt is put there first, as any user would.
            #expect(
                try await send(recorder, "belt/\(id)/cmd/mode", "app", tag: "mode") == #"{"command":"mode","ok":true}"#)
            // The belt prints its writes on a pipe of its own: the mode's write can still be on its way when the
            // reply arrives over MQTT, and must not be counted below.
            _ = try await belt.waitForLine(containing: "WRITE 0000fe05-0000-1000-8000-00805f9b34fb 01810300")
            let before = belt.lineCount
            let screenshot = Self.screenshotPath()
            defer { try? FileManager.default.removeItem(atPath: screenshot) }
            let printed = try await checkInBrowser(
                world, base: base, id: id, screenshot: screenshot,
                [
                    "--command", "vibrate", "--payload", Self.vibration.payload,
                    "--gateway", "test", "--options", #"{"options":{"a5":{"battery_s":30}}}"#,
                ])

            // Two different headings were on screen, in the order the belt sent them.
            let heading = try #require(printed.first { $0.hasPrefix("HEADING ") })
            let values = heading.dropFirst(8).components(separatedBy: " -> ").compactMap { Int($0) }
            #expect(
                values.count == 2 && values[0] != values[1] && values.allSatisfy { (0..<360).contains($0) },
                "\(heading)")
            // The form's JSON went out as the MQTT API takes it: the belt received exactly the vibration's bytes.
            #expect(printed.contains(#"REPLY {"command":"vibrate","ok":true}"#), "\(printed)")
            // The gateway's card shows its settings, and its options form changes one (applied after a restart).
            #expect(printed.contains("SETTINGS test"), "\(printed)")
            let options = try #require(printed.first { $0.hasPrefix("OPTIONS ") }, "\(printed)")
            #expect(
                options.contains(#""ok":true"#) && options.contains(#""restart_required":["a5.battery_s"]"#),
                "\(options)")
            try await belt.waitForLine(after: before) { $0 == Self.vibration.write }
            try await belt.caughtUp()
            let writes = belt.lines.dropFirst(before).map(\.text).filter {
                $0.hasPrefix("WRITE ") && !$0.contains("fe02")
            }
            #expect(writes == [Self.vibration.write])
            let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
            #expect(
                png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 20_000, "a screenshot of \(png.count) bytes")
        }
    }

    /// Issue #58, items 1 and 2: a device's card says what is chosen for it (its gateway's `devices.*` settings), its
    /// Options button fills the gateway's options form to change them (here: streams off), and the card follows; then
    /// it renames the device (its Rename button asks for the new id and sends the gateway's `rename`), and the card
    /// moves to the new id, connected, and the old one goes with its cleared topics. In BlueZoo only: what the page
    /// does is the same on any BlueZ, and the options and the rename are the gateway's (their own tests).
    @Test func inTheBrowserACardShowsAndChangesItsDevicesOptionsAndRenamesIt() async throws {
        try await withPage(.bluezoo, extraArguments: ["--requests-privileged", "true"]) {
            world, _, belt, recorder, id, base in
            let address = try belt.simulatedAddress
            // Named through the options, which the card's form may change (a flag's value it may not).
            let named = recorder.mark
            try recorder.publish(
                "gatt2mqtt/test/request/options", #"{"options":{"devices":{"names":{"\#(address)":"Front belt"}}}}"#)
            try await recorder.waitFor("gatt2mqtt/test/response/options", after: named)
            let screenshot = Self.screenshotPath()
            defer { try? FileManager.default.removeItem(atPath: screenshot) }
            let printed = try await checkInBrowser(
                world, base: base, id: id, screenshot: screenshot,
                [
                    "--command", "mode", "--payload", "app", "--gateway", "test", "--address", address,
                    "--device-option", "streaming=off", "--rename", "front",
                ])
            #expect(printed.contains("DEVICE-OPTIONS name “Front belt”"), "\(printed)")
            let template = try #require(printed.first { $0.hasPrefix("TEMPLATE ") }, "\(printed)")
            #expect(
                template.contains(#""names":{"\#(address)":"Front belt"}"#)
                    && template.contains(#""streaming":{"\#(address)":"on"}"#), "\(template)")
            #expect(
                printed.contains { $0.hasPrefix("DEVICE-OPTIONS-REPLY ") && $0.contains(#""ok":true"#) }, "\(printed)")
            #expect(printed.contains("DEVICE-OPTIONS-NOW name “Front belt” · streams off"), "\(printed)")
            try await recorder.waitFor("gatt2mqtt/test/info") {
                $0.payloadString?.contains(#""streaming":{"\#(address)":"off"}"#) == true
            }
            #expect(printed.contains("RENAMED belt/front"), "\(printed)")
            try await recorder.waitFor("belt/front/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/\(id)/connection") { $0.payload.isEmpty }
        }
    }

    /// Issue #58, item 6: the page for a first-run user. A gateway that adopts (the default) and has adopted nothing
    /// says so on its card and how to go on; its log panel shows what the gateway logged (a command it refused); the
    /// devices it has seen but not adopted are listed, and one click adopts one, whose card then reads connected.
    /// In BlueZoo only: the page's part is the same on any BlueZ, and adoption has tests of its own in both worlds.
    @Test func aFirstRunUserAdoptsTheBeltFromThePage() async throws {
        try await TestWorld.with(.bluezoo) { world in
            let belt = try await world.startSimulator(["belt"])
            let (id, address) = (try belt.simulatedID, try belt.simulatedAddress)
            let recorder = try await TopicRecorder(world: world)
            let base = "http://127.0.0.1:\(try FreePort.allocate())"
            let bridge = try await world.startBridge(
                extraArguments: ["--http", String(base.dropFirst(7)), "--auto-connect", "adopted"])
            try await bridge.waitForLine(containing: "live page on \(base)/", timeout: .seconds(20))
            // A command for a device nobody serves: refused, and logged as a warning (on the log topic).
            try recorder.publish("belt/nobody/cmd/mode", "app")
            try await recorder.waitFor("gatt2mqtt/test/log") { $0.payloadString?.contains("command refused") == true }
            let browser = try world.launch(
                ProjectPaths.python,
                [
                    "-u", Self.crosscheck + "/first_run_check.py", "--url", base + "/", "--gateway", "test",
                    "--address", address, "--device", "belt/\(id)", "--log-contains", "command refused",
                    "--timeout", "60",
                ], name: "browser")
            let exit = try await browser.waitForExit(timeout: .seconds(150))
            let printed = browser.lines.map(\.text)
            #expect(exit == .exited(0), "\(printed.joined(separator: "\n"))")
            #expect(printed.contains("FIRST-RUN test") && printed.contains("ADOPTED belt/\(id)"), "\(printed)")
            #expect(
                printed.contains { $0.hasPrefix("LOG ") && $0.contains("topic=belt/nobody/cmd/mode") }, "\(printed)")
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            let adopted = try await recorder.waitFor("gatt2mqtt/test/adopted") {
                $0.payloadString?.contains(address) == true
            }
            #expect(adopted.payloadString?.contains(#""family":"belt""#) == true)
            await recorder.stop()
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func badRequestsGetClearErrorsAndNeverAWrite(_ kind: BlueZWorld) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-page-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "s3cret-token\n".write(toFile: folder + "/token", atomically: true, encoding: .utf8)
        try "http:\n  token_file: token\n".write(toFile: folder + "/gatt2mqtt.yaml", atomically: true, encoding: .utf8)

        try await withPage(kind, extraArguments: ["--config", folder + "/gatt2mqtt.yaml"]) {
            world, bridge, belt, _, id, base in
            // The belt prints its writes on a pipe of its own: the handshake's last one can still be on its way
            // when `connected` arrives over MQTT, and must not be counted below.
            _ = try await belt.waitForLine(containing: "WRITE 0000fe05-0000-1000-8000-00805f9b34fb 100103")
            let before = belt.lineCount
            let probe = try world.launch(
                ProjectPaths.python,
                [
                    "-u", Self.crosscheck + "/http_probe.py", "--base", base, "--token", "s3cret-token", "--device",
                    "belt/\(id)",
                ],
                name: "http-probe")
            #expect(try await probe.waitForExit(timeout: .seconds(60)) == .exited(0), "\(probe.outputText)")
            let printed = probe.lines.map(\.text)
            let statuses = Dictionary(
                printed.compactMap { line -> (String, Int)? in
                    let words = line.split(separator: " ")
                    guard words.count == 3, words[0] == "STATUS", let code = Int(words[2]) else { return nil }
                    return (String(words[1]), code)
                }, uniquingKeysWith: { first, _ in first })
            #expect(
                statuses == [
                    "get-page": 200, "get-metrics": 200, "get-unknown": 404, "post-page": 405,
                    "live-without-upgrade": 426,
                    "page-without-token": 401, "page-wrong-token": 401, "metrics-bearer": 200,
                    // hummingbird-websocket answers every refused upgrade (here: no token, another site's page) with 400.
                    "live-without-token": 400,
                    "garbage": 400, "live-foreign-origin": 400, "live-https-origin": 400, "live-upgrade": 101,
                    // A name this gateway does not answer to (DNS rebinding) is refused before anything else, the token
                    // notwithstanding; `localhost` is one it answers to.
                    "page-rebound-host": 421, "live-rebound-host": 400, "page-localhost": 200,
                    // A request head never finished (slowloris) is not waited for: the connection closes after 10 s; so
                    // does a kept-alive connection idle for 10 s after its answer.
                    "slow-header-closed": 1, "idle-keepalive-closed": 1,
                ], "\(printed.joined(separator: "\n"))")

            func frame(_ probeName: String) -> String {
                printed.first { $0.hasPrefix("FRAME \(probeName) ") } ?? "none"
            }
            #expect(frame("not-json").contains(#""message":"a frame must be a JSON object""#), "\(frame("not-json"))")
            #expect(
                frame("unknown-family").contains(#""id":1"#) && frame("unknown-family").contains("'device' must be"))
            #expect(frame("wildcard-id").contains(#""id":2"#) && frame("wildcard-id").contains("not a device id"))
            #expect(frame("unknown-request").contains("no request 'reboot'"))
            // A value the bridge refuses comes back as the bridge's own reply, and nothing is written.
            #expect(
                frame("bad-value").contains(#""type":"reply""#)
                    && frame("bad-value").contains(#"\"code\":\"invalid_value\""#), "\(frame("bad-value"))")
            #expect(frame("good-command").contains(#"{\"command\":\"mode\",\"ok\":true}"#), "\(frame("good-command"))")
            try await belt.waitForLine(after: before) { $0.hasPrefix("WRITE 0000fe05") }
            try await belt.caughtUp()
            let writes = belt.lines.dropFirst(before).map(\.text).filter {
                $0.hasPrefix("WRITE ") && !$0.contains("fe02")
            }
            #expect(writes == ["WRITE 0000fe05-0000-1000-8000-00805f9b34fb 01810300"], "only the good command writes")
            // Every refusal is in the log too, and the daemon is still serving.
            try await bridge.waitForLine(containing: "live page frame refused")
            #expect(bridge.isRunning)
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func metricsParseWithPrometheusOwnParserAndCountTheBelt(_ kind: BlueZWorld) async throws {
        try await withPage(kind) { world, bridge, _, recorder, id, base in
            #expect(
                try await send(recorder, "belt/\(id)/cmd/mode", "app", tag: "ok") == #"{"command":"mode","ok":true}"#)
            _ = try await send(recorder, "belt/\(id)/cmd/intensity", #"{"intensity":500}"#, tag: "refused")
            try await recorder.waitFor("belt/\(id)/heading")
            let check = try world.launch(
                ProjectPaths.python, ["-u", Self.crosscheck + "/metrics_check.py", base + "/metrics"], name: "metrics")
            #expect(try await check.waitForExit(timeout: .seconds(30)) == .exited(0), "\(check.outputText)")
            struct Sample: Decodable {
                var family: String?
                var type: String?
                var name: String?
                var labels: [String: String]?
                var value: Double?
                var contentType: String?
                enum CodingKeys: String, CodingKey {
                    case family, type, name, labels, value
                    case contentType = "content_type"
                }
            }
            let samples = try check.lines.map { try JSONDecoder().decode(Sample.self, from: Data($0.text.utf8)) }
            #expect(samples.first?.contentType?.hasPrefix("text/plain; version=0.0.4") == true)
            func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
                samples.first { sample in
                    sample.name == name && labels.allSatisfy { sample.labels?[$0.key] == $0.value }
                }?.value
            }
            let device = "belt/\(id)"
            #expect((value("gatt2mqtt_device_notifications_total", ["device": device]) ?? 0) > 0)
            #expect(value("gatt2mqtt_device_decode_errors_total", ["device": device]) == 0)
            #expect(value("gatt2mqtt_sessions", ["state": "connected"]) == 1)
            #expect((value("gatt2mqtt_mqtt_messages_published_total") ?? 0) > 0)
            #expect((value("gatt2mqtt_mqtt_messages_received_total") ?? 0) >= 2)
            #expect((value("process_resident_memory_bytes") ?? 0) > 1_000_000)
            // The command latency histogram counts both commands, by outcome.
            #expect(value("gatt2mqtt_command_duration_seconds_count", ["family": "belt", "outcome": "ok"]) == 1)
            #expect(
                value("gatt2mqtt_command_duration_seconds_count", ["family": "belt", "outcome": "invalid_value"]) == 1)
            #expect(samples.first { $0.name == "gatt2mqtt_command_duration_seconds_bucket" }?.type == "histogram")

            // The page ends with the bridge: SIGTERM still means a clean exit, status 0.
            bridge.send(SIGTERM)
            #expect(try await bridge.waitForExit(timeout: .seconds(10)) == .exited(0))
            #expect(
                !FreePort.isAccepting(port: Int(base.split(separator: ":").last ?? "") ?? 0),
                "the page's port is closed")
        }
    }
}
