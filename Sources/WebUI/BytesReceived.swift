import NIOCore

/// Whether any byte came from the client on a connection, as the kernel counts it (`tcpi_bytes_received` of Linux's
/// `TCP_INFO`), whether or not the server has read it yet: the connection limits spare a connection whose request is
/// in the kernel's buffer but not read, before closing it for a newcomer (`ConnectionTable`).
enum BytesReceived {
    /// The start of Linux's `struct tcp_info` up to `tcpi_bytes_received` (offset 128, since Linux 4.1), as 17 words:
    /// Glibc's own `tcp_info` ends before it. A shorter struct from an older kernel leaves it 0 (NIO zeroes the
    /// buffer first), and the connection counts as silent, as it did before the kernel was asked.
    private struct TCPInfoPrefix: Sendable {
        var words:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64
            ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var bytesReceived: UInt64 { words.16 }
    }

    /// Whether the client sent anything on `channel`. Asked on the channel's own event loop only (the live page runs
    /// on one, so every channel is): elsewhere the answer would come later, and it is false, as for a channel that is
    /// not a TCP socket.
    static func any(on channel: any Channel) -> Bool {
        guard channel.eventLoop.inEventLoop, let socket = channel as? any SocketOptionProvider else { return false }
        var received: UInt64 = 0
        let info: EventLoopFuture<TCPInfoPrefix> = socket.unsafeGetSocketOption(level: .tcp, name: .tcp_info)
        // On the channel's loop the future is already complete, and its callback runs here, before this returns.
        info.assumeIsolated().whenSuccess { received = $0.bytesReceived }
        return received > 0
    }
}
