import Glibc

/// The `SOCK_SEQPACKET` sockets of AcquireNotify: one packet is one notification.
public enum SeqPacket {
    /// Larger than any ATT MTU (517): a packet is never cut short.
    static let capacity = 1024

    /// Reads every packet waiting on a non-blocking read, each handed to `packet` in one buffer on the
    /// stack (no allocation per wake-up); returns false once the peer has closed its end or the socket
    /// failed. A read of no bytes is an empty packet unless the peer has hung up: on this socket type
    /// both look the same to `recv`, the poll tells them apart.
    public static func drain(_ socket: Int32, _ packet: (UnsafeRawBufferPointer) -> Void) -> Bool {
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) { buffer in
            while true {
                let count = recv(socket, buffer.baseAddress, capacity, Int32(MSG_DONTWAIT))
                if count > 0 || (count == 0 && !hungUp(socket)) {
                    packet(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
                } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                    return true
                } else {
                    return false
                }
            }
        }
    }

    private static func hungUp(_ socket: Int32) -> Bool {
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 1 && poller.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }
}
