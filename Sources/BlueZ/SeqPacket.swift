import Glibc

/// The `SOCK_SEQPACKET` sockets of AcquireNotify: one packet is one notification.
enum SeqPacket {
    /// What one non-blocking read found.
    enum Read {
        case packet(Int)
        /// Nothing waits (or a signal interrupted the read).
        case empty
        /// The peer has closed its end, or the socket failed.
        case ended
    }

    /// Reads one packet into `buffer`. A read of no bytes is an empty packet unless the peer has hung
    /// up: on this socket type both look the same to `recv`, the poll tells them apart.
    static func receive(_ socket: Int32, into buffer: inout [UInt8]) -> Read {
        let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count > 0 { return .packet(count) }
        if count < 0 { return errno == EAGAIN || errno == EINTR ? .empty : .ended }
        return hungUp(socket) ? .ended : .packet(0)
    }

    static func hungUp(_ socket: Int32) -> Bool {
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 1 && poller.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }
}
