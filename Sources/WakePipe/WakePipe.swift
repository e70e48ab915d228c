import CCloseOnExec

#if canImport(Glibc)
    import Glibc
#endif

/// A non-blocking pipe that wakes a thread from poll(): the D-Bus and MQTT I/O threads poll one beside
/// their sockets, so that another thread can wake them when it must, and only then.
public final class WakePipe: Sendable {
    /// The end to poll for reading.
    public let readEnd: Int32
    private let writeEnd: Int32

    /// Nil when the process has no descriptors left (`errno` says why).
    public init?() {
        var ends: [Int32] = [-1, -1]
        // Close-on-exec as they are made: marked afterwards, a child spawned by another thread of the process in
        // between (a test runner's, which hosts these threads) would keep both ends open for its whole life.
        guard pipe2(&ends, O_CLOEXEC | O_NONBLOCK) == 0 else { return nil }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    /// A full pipe already wakes the thread: a failed write loses nothing.
    public func signal() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Takes the pending wake-ups, so that the next poll blocks again.
    public func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, buffer.count) > 0 {}
    }
}
