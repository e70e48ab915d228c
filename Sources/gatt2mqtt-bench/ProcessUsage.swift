import Foundation

/// What a process has used so far, read from /proc: CPU time of all its threads and resident memory.
struct ProcessUsage: Sendable {
    /// Nanoseconds on a CPU, summed over the threads alive now (schedstat: nanosecond resolution,
    /// unlike the 10 ms ticks of /proc/PID/stat). Threads that ended earlier are not counted.
    var cpuNanoseconds: UInt64
    /// Nanoseconds its threads were ready to run but waited for a core (schedstat's second field),
    /// summed the same way: what a loaded machine adds to the process's latencies.
    var waitNanoseconds: UInt64 = 0
    /// Resident set size in KiB (VmRSS): shared library pages included.
    var residentKilobytes: Int
    /// Resident anonymous memory in KiB (RssAnon): what the process allocated itself (heap, stacks,
    /// relocated data), which grows with devices and cannot be dropped. A static binary's clean code
    /// pages, which the kernel maps in 64 KiB runs around each first use and may drop and read again,
    /// are file-backed and left out, as are a shared library's.
    var anonymousKilobytes: Int

    static func read(pid: Int32) -> ProcessUsage? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        else { return nil }
        var cpu: UInt64 = 0
        var wait: UInt64 = 0
        for thread in threads {
            if let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/schedstat", encoding: .utf8) {
                let fields = text.split(separator: " ")
                if let first = fields.first, let nanoseconds = UInt64(first) { cpu += nanoseconds }
                if fields.count > 1, let nanoseconds = UInt64(fields[1]) { wait += nanoseconds }
            }
        }
        /// A `Name:   123 kB` line of the status file, in KiB.
        func kilobytes(_ name: String) -> Int {
            status.split(separator: "\n").first { $0.hasPrefix(name + ":") }
                .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") } ?? 0
        }
        return ProcessUsage(
            cpuNanoseconds: cpu, waitNanoseconds: wait, residentKilobytes: kilobytes("VmRSS"),
            anonymousKilobytes: kilobytes("RssAnon"))
    }
}
