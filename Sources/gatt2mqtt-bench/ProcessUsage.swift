import Foundation

/// What a process has used so far, read from /proc: CPU time of all its threads and resident memory.
struct ProcessUsage: Sendable {
    /// Nanoseconds on a CPU, summed over the threads alive now (schedstat: nanosecond resolution,
    /// unlike the 10 ms ticks of /proc/PID/stat). Threads that ended earlier are not counted.
    var cpuNanoseconds: UInt64
    /// Resident set size in KiB (VmRSS): shared library pages included.
    var residentKilobytes: Int
    /// Resident pages no other process shares, in KiB (Private_Clean + Private_Dirty of smaps_rollup).
    var privateKilobytes: Int

    static func read(pid: Int32) -> ProcessUsage? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        else { return nil }
        var cpu: UInt64 = 0
        for thread in threads {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/schedstat", encoding: .utf8),
                let first = text.split(separator: " ").first, let nanoseconds = UInt64(first)
            {
                cpu += nanoseconds
            }
        }
        let rss = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
        let rollup = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
        let privateKilobytes = rollup.split(separator: "\n").filter { $0.hasPrefix("Private_") }
            .compactMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }.reduce(0, +)
        return ProcessUsage(cpuNanoseconds: cpu, residentKilobytes: rss ?? 0, privateKilobytes: privateKilobytes)
    }
}
