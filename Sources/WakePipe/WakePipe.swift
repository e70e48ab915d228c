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
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
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
