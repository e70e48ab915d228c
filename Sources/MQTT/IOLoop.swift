import CMosquitto
import Dispatch

#if canImport(Glibc)
    import Glibc
#endif

/// The client's I/O thread: connects, runs `mosquitto_loop`, reconnects with backoff, restores
/// the session after each CONNACK, and disconnects cleanly on `stop()`.
///
/// libmosquitto's own thread (`mosquitto_loop_start`) reconnects with whole-second delays and no
/// jitter; a fleet of bridges restarted together would hammer a recovering broker in lockstep.
enum IOLoop {
    /// How long one `mosquitto_loop` call may block; also the worst-case delay before the loop
    /// notices `stop()`.
    static let pollMilliseconds: Int32 = 100
    /// How long the plain-TCP loop's poll may block: keep-alive works in seconds, and whatever must not
    /// wait (`stop()`, a packet left unwritten) wakes the thread through its pipe. An idle gateway's
    /// thread wakes once a second.
    static let idlePollMilliseconds: Int32 = 1000
    /// How long a clean disconnect may take to flush before the socket is abandoned.
    static let disconnectGrace: Duration = .seconds(2)
    /// How long a stop waits for earlier publishes to be sent and acknowledged.
    static let flushGrace: Duration = .seconds(1)

    /// Thread-confined: only the I/O thread reads or writes it.
    struct Progress {
        var socketOpen = false
        var connectIssued = false
    }

    /// Runs until the client is stopped or released. The client is held weakly between steps
    /// so that a client dropped without `stop()` ends its thread instead of leaking it;
    /// `client` returns nil once that happened.
    static func run(client: () -> MQTTClient?) {
        var progress = Progress()
        while let strong = client(), strong.step(&progress) {}
        client()?.didStopLoop(progress: progress)
    }
}

extension MQTTClient {
    /// One turn of the I/O loop; false when the loop should end.
    fileprivate func step(_ progress: inout IOLoop.Progress) -> Bool {
        if state.withLock({ $0.lifecycle == .stopping }) {
            return false
        }
        if !progress.socketOpen {
            let code = openConnection(&progress)
            guard code == MosquittoHandle.success else {
                connectionFailed(code: code, during: "connect")
                return true
            }
            progress.socketOpen = true
        }
        let code: Int32
        if let host = host.withLock({ $0 }), state.withLock({ $0.isConnected && !$0.sessionNeedsRestore }) {
            // TLS included: the host thread then does every read and write of the OpenSSL connection.
            code = ride(on: host)
        } else if handle.writesOnIOThread {
            assertSocketIsOwn()
            code = mosquitto_loop(handle.pointer, IOLoop.pollMilliseconds, 1)
        } else {
            code = pollAndServe()
        }
        if code != MosquittoHandle.success {
            progress.socketOpen = false
            if state.withLock({ $0.lifecycle == .stopping }) { return false }
            connectionFailed(code: code, during: "network loop")
            return true
        }
        if state.withLock({ $0.sessionNeedsRestore }) {
            restoreSession()
            handle.setLibraryLog(enabled: logger.logLevel <= .debug)
        }
        return true
    }

    /// One turn without libmosquitto's socket pair, which it writes on every publish and which would
    /// wake this thread for packets the publishing thread has already written: poll the broker's
    /// socket (for writing only while a packet waits) and the client's own wake-up, then read, write
    /// and run the keep-alive.
    private func pollAndServe() -> Int32 {
        assertSocketIsOwn()
        let socket = mosquitto_socket(handle.pointer)
        guard socket >= 0 else { return MosquittoHandle.noConnection }
        var descriptors = [
            pollfd(
                fd: socket, events: Int16(POLLIN) | (mosquitto_want_write(handle.pointer) ? Int16(POLLOUT) : 0),
                revents: 0),
            pollfd(fd: loopWake.readEnd, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&descriptors, 2, IOLoop.idlePollMilliseconds) >= 0 || errno == EINTR else {
            return MOSQ_ERR_ERRNO.rawValue
        }
        if descriptors[1].revents != 0 { loopWake.drain() }
        let ready = descriptors[0].revents
        if ready & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
            let code = handle.readPackets(1)
            guard code == MosquittoHandle.success else { return code }
        }
        if mosquitto_want_write(handle.pointer) {
            let code = mosquitto_loop_write(handle.pointer, 1)
            guard code == MosquittoHandle.success else { return code }
        }
        return mosquitto_loop_misc(handle.pointer)
    }

    /// Blocking TCP (and TLS) connect, then CONNECT is queued; CONNACK arrives in the loop.
    private func openConnection(_ progress: inout IOLoop.Progress) -> Int32 {
        let code = connectOrReconnect(&progress)
        // libmosquitto makes its socket without SOCK_CLOEXEC: a child spawned later by the process (a test runner
        // hosts this client) would keep the connection open after the client closed it. Marked at once, as the
        // library leaves no way to make it so from the start.
        let socket = mosquitto_socket(handle.pointer)
        if socket >= 0 { _ = fcntl(socket, F_SETFD, fcntl(socket, F_GETFD) | FD_CLOEXEC) }
        return code
    }

    private func connectOrReconnect(_ progress: inout IOLoop.Progress) -> Int32 {
        // mosquitto_reconnect reuses the host, port and CONNECT properties stored by the first
        // connect call; that call stores them even when the connection itself fails.
        if progress.connectIssued {
            return mosquitto_reconnect(handle.pointer)
        }
        progress.connectIssued = true
        let properties: PropertyList
        do {
            properties = try PropertyList.forConnect(configuration)
        } catch {
            logger.error("cannot build CONNECT properties: \(error)")
            properties = PropertyList()
        }
        return mosquitto_connect_bind_v5(
            handle.pointer, configuration.host, Int32(configuration.port), Int32(configuration.keepAlive), nil,
            properties.pointer)
    }

    /// Records the failure, then sleeps the backoff delay (cut short by `stop()`).
    private func connectionFailed(code: Int32, during phase: String) {
        handle.setLibraryLog(enabled: true)  // the next attempt's errors are told only there
        let reason = MosquittoHandle.describe(code)
        let isTLS = code == MosquittoHandle.tlsFailure
        let attempt = state.withLock { state in
            state.isConnected = false
            state.failedAttempts += 1
            // A refused CONNACK was already recorded by its callback with the broker's reason.
            let refused = state.refusalRecorded
            state.refusalRecorded = false
            if (!refused && state.lastFatalError == nil) || isTLS {
                state.lastError = "\(phase): \(reason)"
            }
            if isTLS {
                let error = MQTTError.tls(reason)
                state.lastFatalError = error
                state.connectionWaiters.resumeAll(throwing: error)
            }
            return state.failedAttempts
        }
        if phase == "connect" {
            logger.warning("connection to \(configuration.host):\(configuration.port) failed: \(reason)")
            emit(.disconnected(reason: "connect failed: \(reason)"))
        }
        let delay = configuration.backoff.delay(attempt: attempt, random: Double.random(in: 0..<1))
        emit(.reconnecting(attempt: attempt, delay: delay))
        logger.debug("reconnect attempt \(attempt) in \(delay)")
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        _ = wakeUp.wait(timeout: .now() + .nanoseconds(nanoseconds))
    }

    /// Re-subscribes and re-publishes retained state on a fresh connection. Runs on the I/O
    /// thread after the CONNACK callback has returned, under the session lock so that no
    /// concurrent publish can interleave an older retained value after a newer one.
    private func restoreSession() {
        let version = configuration.protocolVersion
        let (subscriptions, republished) = session.withLock { session in
            for (filter, qos) in session.orderedSubscriptions {
                let code = handle.subscribe(filter, qos: qos, version: version)
                if code != MosquittoHandle.success {
                    logger.warning("re-subscribe to '\(filter)' failed: \(MosquittoHandle.describe(code))")
                }
            }
            var republished = 0
            for message in session.messagesToRestore() {
                do {
                    let code = try handle.publish(message, version: version)
                    try MosquittoHandle.check(code, "re-publish retained '\(message.topic)'")
                    republished += 1
                } catch {
                    logger.warning("\(error)")
                }
            }
            // Cleared under the session lock: subscribe/publish look at it under the same lock to
            // decide whether to send now or leave it to this restore, so nothing goes out twice.
            state.withLock { state in
                state.sessionNeedsRestore = false
                state.statistics.messagesPublished += republished
                state.unfinishedPublishes += republished
                if state.isConnected { state.connectionWaiters.resumeAll(returning: ()) }
            }
            return (session.subscriptions.count, republished)
        }
        logger.debug("session restored: \(subscriptions) subscriptions, \(republished) retained messages")
    }

    /// Sends DISCONNECT if connected, waits briefly for it to be flushed, then wakes `stop()`.
    fileprivate func didStopLoop(progress: IOLoop.Progress) {
        if progress.socketOpen {
            // What was published before stop() goes out first: QoS 1 messages beyond the broker's in-flight
            // window wait in libmosquitto's queue, and a DISCONNECT now would drop them.
            let flushDeadline = ContinuousClock.now + IOLoop.flushGrace
            while state.withLock({ $0.isConnected && $0.unfinishedPublishes > 0 }), ContinuousClock.now < flushDeadline,
                mosquitto_loop(handle.pointer, IOLoop.pollMilliseconds, 1) == MosquittoHandle.success
            {}
            // Reason 0 is "normal disconnection": the broker discards the will.
            if mosquitto_disconnect_v5(handle.pointer, 0, nil) == MosquittoHandle.success {
                let deadline = ContinuousClock.now + IOLoop.disconnectGrace
                while ContinuousClock.now < deadline,
                    mosquitto_loop(handle.pointer, IOLoop.pollMilliseconds, 1) == MosquittoHandle.success
                {}
            }
        }
        let waiters = state.withLock { state in
            state.lifecycle = .stopped
            state.isConnected = false
            state.connectionWaiters.resumeAll(throwing: MQTTError.stopped)
            defer { state.stopWaiters = [] }
            return state.stopWaiters
        }
        finishStreams()
        logger.info("stopped")
        for waiter in waiters { waiter.resume() }
    }
}
