import Foundation

/// Counts a relay's instructions over a measuring window with valgrind's callgrind: the process runs
/// under callgrind with instrumentation off (start-up at a few times its speed, not fifty), which
/// `callgrind_control` switches on and zeroes when the window opens and dumps when it closes. The count
/// is user space only (the kernel's share of each message is not in it) and repeats for the same
/// binary and input whatever else the machine does, unlike CPU time.
struct Callgrind: Sendable {
    /// Where the dumps go, one file per process and dump.
    let folder: String

    /// A callgrind whose dumps go to `folder`, emptied first: an earlier run's dumps would be read as this one's.
    static func inEmptyFolder(_ folder: String) throws -> Callgrind {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return Callgrind(folder: folder)
    }

    /// `executable arguments` under callgrind, writing its dumps as `<folder>/<name>.<pid>[.<n>]`.
    func wrap(_ executable: String, _ arguments: [String], name: String) -> (executable: String, arguments: [String]) {
        (
            "/usr/bin/valgrind",
            ["--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=\(folder)/\(name).%p", executable]
                + arguments
        )
    }

    /// A copy of `binary` without its debug information, which valgrind 3.19 (Debian 12's) cannot read
    /// in the DWARF 5 that Swift 6.3 writes ("unhandled dwarf2 abbrev form code 0x25", then it gives up).
    /// The symbol table stays, so the profile still names functions.
    func withoutDebugInformation(_ binary: String) throws -> String {
        let copy = "\(folder)/\(URL(fileURLWithPath: binary).lastPathComponent)-nodebug"
        try Self.run("/usr/bin/objcopy", ["--strip-debug", binary, copy])
        return copy
    }

    /// The window opens: count from zero.
    func startCounting(_ pid: Int32) throws {
        try Self.run("/usr/bin/callgrind_control", ["--instr=on", "\(pid)"])
        try Self.run("/usr/bin/callgrind_control", ["--zero", "\(pid)"])
    }

    /// What one window counted: every instruction, and those under one function (its inclusive cost).
    struct Count: Sendable {
        var total: UInt64
        var within: UInt64?
    }

    /// The window closes: the instructions since `startCounting`, from the dump it writes now, and those
    /// spent in the function whose symbol contains `function` (the notification path), if it ran.
    func stopCounting(_ pid: Int32, name: String, function: String?) throws -> Count {
        let before = Set(dumps(of: pid, name: name))
        try Self.run("/usr/bin/callgrind_control", ["--dump=window", "\(pid)"])
        guard let dump = dumps(of: pid, name: name).first(where: { !before.contains($0) }),
            let text = try? String(contentsOfFile: dump, encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("summary:") }),
            let total = UInt64(line.dropFirst("summary:".count).trimmingCharacters(in: .whitespaces))
        else { throw BenchFailure("callgrind wrote no count for process \(pid) in \(folder)") }
        return Count(total: total, within: try function.flatMap { try Self.inclusiveCost(of: $0, in: dump) })
    }

    /// The largest inclusive count of a function whose (mangled) symbol contains `fragment`: callgrind
    /// lists a specialised copy and the cycles through it apart, and the outermost holds the others.
    private static func inclusiveCost(of fragment: String, in dump: String) throws -> UInt64? {
        let report = try output("/usr/bin/callgrind_annotate", ["--inclusive=yes", "--threshold=100", dump])
        return report.split(separator: "\n").filter { $0.contains(fragment) }.compactMap { line in
            line.split(separator: " ", omittingEmptySubsequences: true).first.flatMap {
                UInt64($0.replacingOccurrences(of: ",", with: ""))
            }
        }.max()
    }

    private func dumps(of pid: Int32, name: String) -> [String] {
        let prefix = "\(name).\(pid)."
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(prefix) }
            .map { "\(folder)/\($0)" }
    }

    private static func run(_ executable: String, _ arguments: [String]) throws {
        let text = try output(executable, arguments)
        guard !text.contains("Error") else {
            throw BenchFailure("\(executable) \(arguments.joined(separator: " ")): \(text)")
        }
    }

    private static func output(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchFailure("\(executable) \(arguments.joined(separator: " ")): \(text)")
        }
        return text
    }
}
