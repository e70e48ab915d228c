import Foundation

extension ManagedProcess {
    /// For a `gatt2mqtt-sim` (launched with a standard input): returns once every line it wrote before this
    /// call has been read into `lines`. A line the simulator wrote before answering BlueZ (a WRITE, a
    /// DECLINED) can still be in the pipe when the answer's effect reaches the test over the broker; the
    /// simulator echoes `SYNC <token>` in order with its output, so the echo's arrival means the rest is in.
    public func caughtUp(timeout: Duration = .seconds(10)) async throws {
        let token = "SYNC \(UUID().uuidString.prefix(8))"
        let mark = lineCount
        try send(line: token)
        try await waitForLine(after: mark, timeout: timeout) { $0 == token }
    }
}
