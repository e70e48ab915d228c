import CMosquitto
import WakePipe

#if canImport(Glibc)
    import Glibc
#endif

/// The broker's socket polled by a host thread (`start(host:)`) while the session is up, over plain TCP and
/// TLS alike: the gateway then has one I/O thread for the bus, the notification sockets and the broker. Over
/// TLS every read and write of the OpenSSL connection is the host's: publishers only queue their packets
/// (libmosquitto's threaded mode) and ask the host to poll for writing.
extension MQTTClient {
    /// Hands the socket to `host` and sleeps until the host reports it failed or `stop()` wakes this
    /// thread; then takes it back (libmosquitto's calls on it are this thread's again). Returns the
    /// failure's code, or success after a stop.
    func ride(on host: any DescriptorHost) -> Int32 {
        let socket = mosquitto_socket(handle.pointer)
        guard socket >= 0 else { return MosquittoHandle.noConnection }
        let hosted = host.host(socket) { [weak self] readiness in self?.serveHosted(readiness, host: host) }
        state.withLock { state in
            state.riding = hosted
            state.ridingFailure = nil
            state.lastServed = .now
        }
        host.pollForWriting(hosted, mosquitto_want_write(handle.pointer))
        logger.debug("the broker's socket is polled by the host thread")
        while state.withLock({ $0.ridingFailure == nil && $0.lifecycle != .stopping }) {
            // Wakes when the silence would be too long, not a whole silence after looking: a fixed wait let
            // a host that stopped just after a look go unnoticed for twice the allowed silence.
            let silence = state.withLock { ContinuousClock.now - $0.lastServed }
            var wake = pollfd(fd: loopWake.readEnd, events: Int16(POLLIN), revents: 0)
            _ = poll(&wake, 1, Self.millisecondsLeft(of: Self.hostSilence, after: silence))
            loopWake.drain()
            if state.withLock({ ContinuousClock.now - $0.lastServed > Self.hostSilence }) {
                logger.warning(
                    "the host thread stopped polling the broker's socket; the client's own thread takes it back")
                self.host.withLock { $0 = nil }
                break
            }
        }
        // Released here as well as by a failing handler: the registration ends once, and a socket number
        // reused meanwhile belongs to another registration, which this leaves alone.
        host.release(hosted)
        return state.withLock { state in
            state.riding = nil
            return state.ridingFailure ?? MosquittoHandle.success
        }
    }

    /// On the host's thread: reads every packet that is there, writes what waits, and keeps the connection
    /// alive on each tick; a failure gives the socket back to the client's thread.
    private func serveHosted(_ readiness: DescriptorReadiness, host: any DescriptorHost) {
        guard
            let hosted = state.withLock({ state in
                state.lastServed = .now
                return state.riding
            })
        else { return }
        var code = MosquittoHandle.success
        if !readiness.isDisjoint(with: [.readable, .hungUp]) {
            code = handle.readPackets(Self.packetsPerRead)
        }
        if code == MosquittoHandle.success, mosquitto_want_write(handle.pointer) {
            code = mosquitto_loop_write(handle.pointer, 1)
        }
        if code == MosquittoHandle.success, readiness.contains(.tick) {
            code = mosquitto_loop_misc(handle.pointer)
        }
        guard code == MosquittoHandle.success else {
            host.release(hosted)
            state.withLock { $0.ridingFailure = code }
            loopWake.signal()
            return
        }
        let pending = mosquitto_want_write(handle.pointer)
        host.pollForWriting(hosted, pending)
        // A publisher on another thread may have queued a packet between the check and the change.
        if !pending, mosquitto_want_write(handle.pointer) { host.pollForWriting(hosted, true) }
    }

    /// A packet could not be written at once: whichever thread polls the socket must poll it for writing.
    func pollForWriting() {
        let riding = state.withLock { $0.riding }
        if let riding, let host = host.withLock({ $0 }) {
            host.pollForWriting(riding, true)
        } else {
            loopWake.signal()
        }
    }

    /// Packets one wake-up reads at most: every one that arrived, in practice (libmosquitto stops at the
    /// first read that would block).
    static let packetsPerRead: Int32 = 64
    /// How long the host may go without serving the socket (it ticks it about once a second).
    static let hostSilence = Duration.seconds(5)

    /// The poll timeout that ends just past `limit` when `elapsed` of it has gone (at least 1 ms, so a
    /// late look never spins).
    static func millisecondsLeft(of limit: Duration, after elapsed: Duration) -> Int32 {
        let left = limit - elapsed
        let (seconds, attoseconds) = left.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1
        return Int32(clamping: max(1, milliseconds))
    }
}

extension MQTTClient {
    /// Debug builds check that the client's own thread never reads, writes or keeps alive the broker's socket
    /// while a host thread holds it (`ride(on:)`): libmosquitto's calls on a socket belong to one thread at a time.
    func assertSocketIsOwn() {
        assert(
            state.withLock { $0.riding == nil },
            "the client's thread served the broker's socket while the host thread held it")
    }
}
