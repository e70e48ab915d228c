import Foundation
import TestSupport
import Testing

/// Shell completion (issue #58, item 7), as a user's shell meets it: `gatt2mqtt --print-completion SHELL` loaded by
/// bash, zsh and fish themselves. Every flag `--help` names completes, and no other; a setting's values complete
/// where its key names them, file names where it takes a path.
@Suite struct CompletionScriptTests {
    private static func run(_ executable: String, _ arguments: [String]) async throws -> (ProcessExit, String) {
        let process = try ManagedProcess.launch(executable, arguments: arguments)
        let exit = try await process.waitForExit(timeout: .seconds(30))
        // Standard output alone, each line as written (`outputText` marks each line with its stream).
        let output = process.lines.filter { $0.stream == .stdout }.map { $0.text + "\n" }.joined()
        return (exit, exit == .exited(0) ? output : process.outputText)
    }

    private static func script(_ shell: String) async throws -> String {
        let (exit, text) = try await run(ProjectPaths.binary("gatt2mqtt"), ["--print-completion", shell])
        #expect(exit == .exited(0), "\(text)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gatt2mqtt-\(UUID().uuidString).\(shell)")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Every `--flag` in `text`.
    private static func flags(in text: String) -> Set<String> {
        Set(text.matches(of: #/--[a-z0-9][a-z0-9-]*/#).map { String($0.output) })
    }

    /// What bash's completion function offers for the words of a command line, the last being completed.
    private static func bash(_ file: String, _ words: [String], in folder: String? = nil) async throws -> [String] {
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let (exit, text) = try await run(
            "/bin/bash",
            [
                "-c",
                "cd '\(folder ?? "/")' && . '\(file)' && COMP_WORDS=(\(quoted)) && COMP_CWORD=\(words.count - 1) "
                    + #"&& _gatt2mqtt && printf '%s\n' "${COMPREPLY[@]}""#,
            ])
        #expect(exit == .exited(0), "\(text)")
        return text.split(separator: "\n").map(String.init).sorted()
    }

    @Test func bashCompletesEveryFlagOfTheHelpAndTheValuesItNames() async throws {
        let file = try await Self.script("bash")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (_, help) = try await Self.run(ProjectPaths.binary("gatt2mqtt"), ["--help"])
        let helped = Self.flags(in: help)
        #expect(helped.count > 60, "\(helped.count) flags in --help")
        let offered = Set(try await Self.bash(file, ["gatt2mqtt", "--"]))
        #expect(
            offered == helped,
            "only in --help: \(helped.subtracting(offered)); only completed: \(offered.subtracting(helped))")

        #expect(try await Self.bash(file, ["gatt2mqtt", "--devices-auto-c"]) == ["--devices-auto-connect"])
        #expect(
            try await Self.bash(file, ["gatt2mqtt", "--devices-auto-connect", "a"]) == ["adopted", "all", "allowed"])
        #expect(try await Self.bash(file, ["gatt2mqtt", "--print-completion", ""]) == ["bash", "fish", "zsh"])
        // A value of the user's own: nothing offered, not the flags.
        #expect(try await Self.bash(file, ["gatt2mqtt", "--broker", ""]) == [])
        // A path: the folder's files.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "{}".write(to: folder.appendingPathComponent("backup.json"), atomically: true, encoding: .utf8)
        #expect(try await Self.bash(file, ["gatt2mqtt", "--restore", "ba"], in: folder.path) == ["backup.json"])
    }

    @Test func fishCompletesTheFlagsAndTheirValues() async throws {
        let file = try await Self.script("fish")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (exit, text) = try await Self.run(
            "/usr/bin/fish",
            [
                "--no-config", "-c",
                "source '\(file)'; complete -C 'gatt2mqtt --devices-auto-c'; echo ---; complete -C 'gatt2mqtt --devices-auto-connect '",
            ])
        #expect(exit == .exited(0), "\(text)")
        let parts = text.components(separatedBy: "---\n")
        #expect(parts.first?.hasPrefix("--devices-auto-connect\t") == true, "\(text)")
        let values = parts.last?.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }.sorted()
        #expect(values == ["adopted", "all", "allowed", "none"], "\(text)")
    }

    @Test func zshReadsItsScript() async throws {
        let file = try await Self.script("zsh")
        defer { try? FileManager.default.removeItem(atPath: file) }
        let (exit, text) = try await Self.run("/usr/bin/zsh", ["-n", file])
        #expect(exit == .exited(0), "\(text)")
        let script = try String(contentsOfFile: file, encoding: .utf8)
        #expect(script.hasPrefix("#compdef gatt2mqtt\n"))
        #expect(script.contains("'--devices-auto-connect["), "\(script.prefix(400))")
        #expect(script.contains(":value:(adopted all none allowed)'"))
        #expect(script.contains("'*--adapter["), "a list's flag repeats")
    }
}
