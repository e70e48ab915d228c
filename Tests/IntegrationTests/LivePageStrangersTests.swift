import Foundation
import TestSupport
import Testing

/// The live page among strangers on the same network (issue #43): guessing its password is slowed and logged,
/// and idle connections do not keep a legitimate client out. A raw-socket probe does what a stranger would
/// (scripts/crosscheck/stranger_probe.py); no device is needed.
@Suite(.serialized)
struct LivePageStrangersTests {
    static let probe = ProjectPaths.root + "/scripts/crosscheck/stranger_probe.py"
    /// PHP's documented `password_hash` example, `$2y$` as htpasswd -B writes it: bcrypt from another implementation.
    static let hash = (text: "$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a", password: "rasmuslerdorf")

    /// A bridge serving the page on a free loopback port with the configuration `yaml` (files from `files`).
    private func withPage(
        _ kind: BlueZWorld, yaml: String, files: [String: String],
        caller: String = #function, _ body: (TestWorld, ManagedProcess, Int) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("strangers-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, text) in files { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        try yaml.write(toFile: folder + "/gatt2mqtt.yaml", atomically: true, encoding: .utf8)
        try await TestWorld.with(kind, caller: caller) { world in
            let port = try FreePort.allocate()
            let bridge = try await world.startBridge(extraArguments: [
                "--http", "127.0.0.1:\(port)", "--config", folder + "/gatt2mqtt.yaml",
            ])
            try await bridge.waitForLine(containing: "live page on http://127.0.0.1:\(port)/", timeout: .seconds(20))
            try await body(world, bridge, port)
        }
    }

    private func runProbe(_ world: TestWorld, _ arguments: [String]) async throws -> [String] {
        let probe = try world.launch(ProjectPaths.python, ["-u", Self.probe] + arguments, name: "stranger-probe")
        #expect(try await probe.waitForExit(timeout: .seconds(120)) == .exited(0), "\(probe.outputText)")
        // The figures, in the test's output: issue #43 asks for them before and after.
        print(probe.outputText)
        return probe.lines.map(\.text)
    }

    /// The probe's legitimate requests (`LEGIT <status> <seconds>`), each expected answered 200 before the 10 s any idle
    /// connection is given: a starved client waits for one to be closed, a served one does not.
    private func servedAtOnce(_ printed: [String], sourceLocation: SourceLocation = #_sourceLocation) -> [[Substring]] {
        let output = printed.joined(separator: "\n")
        let legit = printed.filter { $0.hasPrefix("LEGIT ") }.map { $0.split(separator: " ") }
        #expect(legit.count >= 3, "\(output)", sourceLocation: sourceLocation)
        for answer in legit {
            #expect(answer[1] == "200", "\(output)", sourceLocation: sourceLocation)
            #expect(
                (Double(answer[2]) ?? 99) < 5, "served before any idle connection's 10 s deadline: \(output)",
                sourceLocation: sourceLocation)
        }
        return legit
    }

    /// 200 wrong passwords as fast as answers come, and on until a window of 2 s has begun: before, all were
    /// checked (1,000 took 0.43 s) and nothing was logged. Now five are free, each later failure doubles a window
    /// in which the source gets 429 unchecked, so only a handful are checked while the probe runs (7 once the
    /// 2 s window begins; at most 12 within a minute: 5 free, then windows of 1, 2, 4, 8, 16, 32 s; the 200 took 32 s
    /// on a loaded host); the right password from another address still opens the page at once.
    @Test(arguments: BlueZWorld.enabled)
    func guessingIsRefusedAndLoggedWhileAnotherSourceGetsIn(_ kind: BlueZWorld) async throws {
        try await withPage(
            kind, yaml: "http:\n  username: ops\n  password_hash_file: hash\n", files: ["hash": Self.hash.text + "\n"]
        ) { world, bridge, port in
            let printed = try await runProbe(
                world, ["guess", "--port", "\(port)", "--user", "ops", "--wrong", "200", "--right", Self.hash.password])
            let output = printed.joined(separator: "\n")
            let guesses = try #require(printed.first { $0.hasPrefix("GUESSES ") }, "\(output)").split(separator: " ")
            let counts = Dictionary(
                uniqueKeysWithValues: guesses.dropFirst(3).map { word in
                    let parts = word.split(separator: "x")
                    return (Int(parts[1]) ?? 0, Int(parts[0]) ?? 0)
                })
            let sent = Int(guesses[1]) ?? 0
            let checked = counts[401] ?? 0
            #expect(sent >= 200 && Set(counts.keys).isSubset(of: [401, 429]), "\(output)")
            #expect((7...12).contains(checked), "five free failures, then one check per window: \(output)")
            #expect(counts[429] == sent - checked, "\(output)")
            #expect(printed.contains { $0.hasPrefix("RETRY-AFTER ") }, "a 429 says when to come back: \(output)")
            // Another address is another source: the right password works there, unthrottled (how long its one bcrypt
            // check takes is the machine's business, printed for the note, not asserted); the guessing source is refused
            // even with it until its window ends.
            let right = try #require(printed.first { $0.hasPrefix("RIGHT 127.0.0.2 ") }, "\(output)").split(
                separator: " ")
            #expect(right[2] == "200", "\(output)")
            print(
                "FIGURE live page: the right password from another source answered in \(right[3]) s while one guessed")
            #expect(printed.contains { $0.hasPrefix("RIGHT 127.0.0.1 429 ") }, "\(output)")
            let line = try await bridge.waitForLine(containing: "live page: wrong credentials")
            #expect(line.contains("source=127.0.0.1"), "\(line)")
            try await bridge.waitForLine(containing: "refused_for_s=")
            #expect(!bridge.outputText.contains(Self.hash.password), "the password is never logged")
        }
    }

    /// 300 connections that send nothing, reopened as the server closes them, while a legitimate client (the same
    /// address: every test client is 127.0.0.1) asks for the page every 0.2 s for 3 s, and on until three of its
    /// requests were answered (under load one answer took 2.8 s, and only one fitted in 3 s). Before, the server took
    /// 64 connections and left the rest in the kernel's backlog until idle ones timed out after 10 s: the page
    /// came after 38.5 s. Now a newcomer closes the oldest connection that has sent nothing, so each request is
    /// served at once. The bound tells the two apart, not how fast the machine is: a starved client waits for the
    /// first idle connection's 10 s head deadline, a served one does not (measured here 0.06-0.16 s, and about 1 s
    /// with two compilers beside it), so it is half that deadline. The times are printed for the note.
    @Test(arguments: BlueZWorld.enabled)
    func idleConnectionsDoNotKeepALegitimateRequestOut(_ kind: BlueZWorld) async throws {
        try await withPage(kind, yaml: "http:\n  token_file: token\n", files: ["token": "t0k3n\n"]) { world, _, port in
            let printed = try await runProbe(
                world,
                [
                    "crowd", "--port", "\(port)", "--token", "t0k3n", "--idle", "300", "--seconds", "3", "--requests",
                    "3",
                ])
            let output = printed.joined(separator: "\n")
            let legit = servedAtOnce(printed)
            print(
                "FIGURE live page behind 300 idle sockets: " + legit.map { String($0[2]) }.joined(separator: " ") + " s"
            )
            let idle = try #require(printed.first { $0.hasPrefix("IDLE ") }, "\(output)").split(separator: " ")
            #expect((Int(idle[2]) ?? 0) > 0, "the server closed idle connections to make room: \(output)")
        }
    }

    /// 64 kept-alive connections from 127.0.0.1 to the page without credentials (its default), each sending a whole
    /// request and asking again every 2 s, while a legitimate client (the same address) asks for the page every 0.2 s
    /// for 3 s. Issue #56: without credentials any request logs in, and a logged-in connection was never closed for a
    /// newcomer, so the first 32 (the per-source limit) held every place from 127.0.0.1 for as long as they kept
    /// asking, and the legitimate client's connections were closed unanswered. Now a connection is spared only while
    /// its request is served (or as a WebSocket): once answered, a kept-alive one makes room, so each legitimate
    /// request is answered, well within the 10 s any idle connection is given. The times are printed for the note.
    @Test(arguments: BlueZWorld.enabled)
    func keptAliveConnectionsDoNotKeepALegitimateRequestOut(_ kind: BlueZWorld) async throws {
        try await withPage(kind, yaml: "log_level: info\n", files: [:]) { world, bridge, port in
            let printed = try await runProbe(
                world, ["keepalive", "--port", "\(port)", "--clients", "64", "--seconds", "3", "--requests", "3"])
            let output = printed.joined(separator: "\n")
            let legit = servedAtOnce(printed)
            print(
                "FIGURE live page beside 64 kept-alive clients: "
                    + legit.map { "\($0[1]) in \($0[2]) s" }
                    .joined(separator: ", "))
            let kept = try #require(printed.first { $0.hasPrefix("KEEPALIVE ") }, "\(output)").split(separator: " ")
            #expect((Int(kept[1]) ?? 0) >= 32, "the kept-alive connections were answered too: \(output)")
            #expect(!bridge.outputText.contains("every connection is at work"), "nobody was refused")
        }
    }
}
