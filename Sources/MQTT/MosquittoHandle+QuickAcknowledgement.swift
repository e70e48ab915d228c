import CMosquitto

#if canImport(Glibc)
    import Glibc
#endif

extension MosquittoHandle {
    /// Reads from the broker and acknowledges at once what arrives next.
    ///
    /// Brokers leave Nagle's algorithm on towards their clients (mosquitto's `set_tcp_nodelay` is off by
    /// default), so a command the broker sends right after another packet to this client (another
    /// device's command, a PUBACK) waits until this side acknowledges the first. Linux delays that ACK
    /// until this client next sends or up to 40 ms: between telemetry bursts, a command waited 10 ms and
    /// more (BENCHMARKS.md). Linux leaves quick-ACK mode by itself, so every read sets it again: one
    /// system call per read, and reads of the broker's socket are commands and acknowledgements only.
    func readPackets(_ maximum: Int32) -> Int32 {
        let code = mosquitto_loop_read(pointer, maximum)
        let socket = mosquitto_socket(pointer)
        if socket >= 0 {
            var on: Int32 = 1
            // Not TCP (a failure is harmless): the ACKs simply stay as the kernel schedules them.
            _ = setsockopt(socket, Int32(IPPROTO_TCP), TCP_QUICKACK, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        return code
    }
}
