import CMosquitto

#if canImport(Glibc)
    import Glibc
#endif

extension MosquittoHandle {
    /// Holds back what is written to the broker's socket (`TCP_CORK`) while `body` publishes several messages, and
    /// sends them as one segment when it returns.
    ///
    /// Over plain TCP each publish writes its packet at once, and on a small gateway the kernel's path for a segment
    /// (out through loopback or the network stack, and the broker's wake-up) costs more than building the message: a
    /// value that becomes two messages (the belt's `heading` and `orientation`) paid it twice. Corking is only a hint
    /// to the kernel: a publish from another thread meanwhile joins the segment, and uncorking sends whatever waits.
    /// Over TLS the I/O thread writes (`writesOnIOThread`), and this does nothing.
    func corked(_ body: () -> Void) {
        let socket = writesOnIOThread ? -1 : mosquitto_socket(pointer)
        guard socket >= 0 else { return body() }
        var on: Int32 = 1
        // Not TCP (a failure is harmless): the messages simply go one by one.
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &on, socklen_t(MemoryLayout<Int32>.size))
        body()
        var off: Int32 = 0
        _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_CORK, &off, socklen_t(MemoryLayout<Int32>.size))
    }
}
