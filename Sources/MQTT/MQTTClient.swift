import CMosquitto
import Dispatch
import Locks
import Logging
import WakePipe

/// An MQTT client over libmosquitto that keeps its session alive by itself.
///
/// `start()` connects in the background on the client's own I/O thread and keeps reconnecting,
/// with exponential backoff and jitter, until `stop()`. After every successful connection it
/// re-subscribes to every filter given to `subscribe` and re-publishes every retained message
/// it has published, so a broker that restarted and lost its state gets it back.
///
/// Incoming messages arrive on `messages`, connection changes on `events`. Each stream is
/// meant for one consumer.
public final class MQTTClient: Sendable {
    /// The configuration the client was created with.
    public let configuration: MQTTConfiguration

    /// Messages delivered by the broker for the client's subscriptions.
    ///
    /// Buffers up to `configuration.incomingBufferSize` messages and then drops the oldest
    /// (counted in `statistics.droppedMessages`): the I/O thread must never wait for a slow
    /// consumer, or keep-alives would stop and the broker would drop the connection, and for
    /// device commands the newest ones matter most. Messages that would take the waiting bytes
    /// beyond `configuration.incomingBufferBytes` are dropped (and counted) as they arrive.
    public let messages: MQTTMessages

    /// Connection changes. Buffers the newest 256 events: they describe the current state, so
    /// the latest ones are the ones worth keeping if nobody listens.
    public let events: AsyncStream<MQTTEvent>

    let logger: Logger
    let handle: MosquittoHandle
    let state = Mutex(ClientState())
    /// Held while a subscription or retained message is recorded and handed to libmosquitto,
    /// and while the I/O thread replays them, so a replay can never send an older retained value
    /// after a newer one. Never taken inside a libmosquitto callback.
    let session = Mutex(SessionRegistry())
    /// Wakes the I/O thread early from a backoff wait when `stop()` is called.
    let wakeUp = DispatchSemaphore(value: 0)
    /// Wakes the I/O thread from its poll: at `stop()`, and when a packet could not be written at once.
    let loopWake: WakePipe
    let messageContinuation: AsyncStream<MQTTMessage>.Continuation
    let waitingBytes: WaitingBytes
    let eventContinuation: AsyncStream<MQTTEvent>.Continuation

    /// Creates a client; nothing is sent until `start()`.
    ///
    /// Throws `MQTTError.invalidConfiguration` or `.library` if libmosquitto rejects the
    /// configuration (unreadable TLS files, an invalid will topic, …).
    public init(configuration: MQTTConfiguration, logger: Logger = Logger(label: "mqtt")) throws {
        self.configuration = configuration
        var logger = logger
        logger[metadataKey: "mqtt.client"] = "\(configuration.clientID)"
        self.logger = logger
        guard let loopWake = WakePipe() else {
            throw MQTTError.invalidConfiguration("cannot create the I/O thread's wake-up pipe")
        }
        self.loopWake = loopWake
        handle = try MosquittoHandle(
            clientID: configuration.clientID, cleanStart: configuration.cleanStart,
            writesOnIOThread: configuration.tls != nil)
        try handle.apply(configuration)
        let (stream, messageContinuation) = AsyncStream.makeStream(
            of: MQTTMessage.self, bufferingPolicy: .bufferingNewest(max(configuration.incomingBufferSize, 1)))
        waitingBytes = WaitingBytes(limit: configuration.incomingBufferBytes)
        messages = MQTTMessages(stream: stream, waiting: waitingBytes)
        self.messageContinuation = messageContinuation
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
        // Unretained: callbacks fire only inside libmosquitto calls made through this client,
        // which therefore is alive; deinit detaches before the handle is destroyed.
        handle.installCallbacks(userData: Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        handle.detachCallbacks()
        messageContinuation.finish()
        eventContinuation.finish()
    }

    /// The thread that polls the broker's socket while the session is up, when not the client's own.
    let host = Mutex<(any DescriptorHost)?>(nil)

    /// Starts connecting in the background and returns at once. Calling it again, or after
    /// `stop()`, does nothing.
    ///
    /// With a `host` (the D-Bus connection, whose thread already carries the values that are published),
    /// that thread polls the broker's socket once the session is up: it reads, writes and keeps the
    /// connection alive, and the client's own thread sleeps until the socket fails, to reconnect. Over TLS as
    /// well: the OpenSSL connection is then read and written by the host's thread alone.
    public func start(host: (any DescriptorHost)? = nil) {
        let shouldStart = state.withLock { state in
            guard state.lifecycle == .idle else { return false }
            state.lifecycle = .running
            return true
        }
        self.host.withLock { $0 = host }
        guard shouldStart else { return }
        logger.info("connecting to \(configuration.host):\(configuration.port)")
        let started = IOThread.start(name: "mqtt-io") { [weak self] in
            IOLoop.run { self }
        }
        if started == nil { logger.critical("cannot start the MQTT I/O thread") }
    }

    /// Disconnects cleanly (a DISCONNECT, so the broker does not publish the will), waits for
    /// the I/O thread to end, and finishes both streams. Safe to call more than once.
    public func stop() async {
        enum Next { case done, wait }
        let next: Next = state.withLock { state in
            switch state.lifecycle {
            case .idle:
                state.lifecycle = .stopped
                state.connectionWaiters.resumeAll(throwing: MQTTError.stopped)
                return .done
            case .running, .stopping:
                state.lifecycle = .stopping
                return .wait
            case .stopped:
                return .done
            }
        }
        if next == .done {
            finishStreams()
            return
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state in
                if state.lifecycle == .stopped { return true }
                state.stopWaiters.append(continuation)
                return false
            }
            if finished { continuation.resume() }
            wakeUp.signal()
            loopWake.signal()
        }
    }

    /// Returns once the client is connected (CONNACK received and subscriptions and retained
    /// state restored), at once if it already is.
    ///
    /// Throws `MQTTError.connectionRefused` when the broker refuses the connection (bad
    /// credentials, not authorised), `.tls` when the TLS handshake fails, `.timeout` when neither
    /// success nor such a failure happens within `timeout` (e.g. nothing listens on the port),
    /// and `.stopped` after `stop()`. The client keeps retrying in the background regardless. A refusal
    /// that says the broker cannot take clients now (unavailable, busy, over quota or rate) is waited
    /// through like an unreachable broker: it ends in `.timeout` naming it, not at once.
    public func connected(timeout: Duration = .seconds(10)) async throws {
        let id = state.withLock { $0.connectionWaiters.makeID() }
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.failConnectionWaiter(id, with: MQTTError.timeout(lastError: self?.state.withLock { $0.lastError }))
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                state.withLock { state in
                    if state.isConnected && !state.sessionNeedsRestore {
                        continuation.resume()
                    } else if let error = state.lastFatalError {
                        continuation.resume(throwing: error)
                    } else if state.lifecycle == .stopped || state.lifecycle == .stopping {
                        continuation.resume(throwing: MQTTError.stopped)
                    } else {
                        state.connectionWaiters.add(id, continuation)
                    }
                }
            }
        } onCancel: {
            failConnectionWaiter(id, with: CancellationError())
        }
        state.withLock { $0.connectionWaiters.forget(id) }
    }

    /// Publishes `message` without waiting for the network: it is queued for the I/O thread.
    ///
    /// A retained message is also remembered (an empty retained payload forgets the topic) and
    /// re-published after every reconnect; published while disconnected, it is simply sent on
    /// the next connection. A non-retained QoS 0 message throws `MQTTError.notConnected` while
    /// disconnected; QoS 1 and 2 messages are queued by libmosquitto until the connection is back.
    /// With MQTT 3.1.1 the MQTT 5 properties are dropped.
    public func publish(_ message: MQTTMessage) throws {
        try session.withLock { session in
            session.remember(message)
            if message.retain && !canSendNow {
                logger.debug("retained '\(message.topic)' will be sent when the session is restored")
                return
            }
            let code = try handle.publish(message, version: configuration.protocolVersion)
            if code == MosquittoHandle.noConnection {
                // Lost since the check: the next restore sends a retained message.
                if message.retain { return }
                throw MQTTError.notConnected
            }
            try published(code, to: message.topic)
        }
    }

    /// Publishes a value of a stream (not retained, no properties): as `publish(_:)`, without making an
    /// `MQTTMessage` of it. At hundreds of values a second, the message's payload copy and its fields' copies and
    /// releases were a tenth of a value's notification path (callgrind).
    public func publishValue(topic: String, payload: String, qos: MQTTQoS) throws {
        try session.withLock { _ in
            var payload = payload
            let code = payload.withUTF8 { bytes in
                handle.publishValue(topic: topic, payload: UnsafeRawBufferPointer(bytes), qos: qos)
            }
            if code == MosquittoHandle.noConnection { throw MQTTError.notConnected }
            try published(code, to: topic)
        }
    }

    /// After libmosquitto took a message: its error thrown, the socket polled for writing when it must be, the
    /// message counted. Under the session's lock.
    private func published(_ code: Int32, to topic: String) throws {
        try MosquittoHandle.check(code, "publish to '\(topic)'")
        if handle.writesOnIOThread {
            // Queued (TLS): libmosquitto wakes its own loop, but a host thread serving the socket must be told.
            if state.withLock({ $0.riding != nil }) { pollForWriting() }
        } else if mosquitto_want_write(handle.pointer) {
            // Written here unless the socket was full: then the thread that polls it must poll for writing.
            pollForWriting()
        }
        state.withLock { state in
            state.statistics.messagesPublished += 1
            state.unfinishedPublishes += 1
        }
    }

    /// Keeps the retained topics `predicate` picks from the re-publishing after a reconnect: they wait, withheld,
    /// until `releaseWithheld(under:republish:)` says whether they are still this client's to publish. A fleet
    /// gateway cut off from its broker may have lost a device to another gateway meanwhile; its old state must
    /// not overwrite the new owner's.
    public func withholdOnRestore(_ predicate: @escaping @Sendable (String) -> Bool) {
        session.withLock { $0.withholds = predicate }
    }

    /// Whether a restore withheld retained topics under `prefix`.
    public func hasWithheld(under prefix: String) -> Bool {
        session.withLock { session in session.withheld.contains { $0.hasPrefix(prefix) } }
    }

    /// Publishes the withheld retained topics under `prefix` again (`republish`), or forgets them.
    public func releaseWithheld(under prefix: String, republish: Bool) {
        let messages = session.withLock { $0.takeWithheld(under: prefix, keep: republish) }
        for message in messages { try? publish(message) }
    }

    /// Subscribes to `filter` now if connected, and again after every reconnect.
    public func subscribe(_ filter: String, qos: MQTTQoS = .atLeastOnce) throws {
        try session.withLock { session in
            // Validate even when it cannot be sent yet, so a bad filter fails here, not later.
            guard mosquitto_sub_topic_check(filter) == MosquittoHandle.success else {
                throw MQTTError.library(
                    operation: "subscribe", code: MOSQ_ERR_INVAL.rawValue, message: "invalid topic filter '\(filter)'")
            }
            session.addSubscription(filter, qos: qos)
            guard canSendNow else { return }
            let code = handle.subscribe(filter, qos: qos, version: configuration.protocolVersion)
            // Not connected any more is fine: the subscription is sent after the next CONNACK.
            if code != MosquittoHandle.noConnection {
                try MosquittoHandle.check(code, "subscribe to '\(filter)'")
            }
        }
    }

    /// Unsubscribes from `filter` and stops re-subscribing to it after reconnects.
    public func unsubscribe(_ filter: String) throws {
        try session.withLock { session in
            session.removeSubscription(filter)
            guard canSendNow else { return }
            let code = handle.unsubscribe(filter)
            if code != MosquittoHandle.noConnection {
                try MosquittoHandle.check(code, "unsubscribe from '\(filter)'")
            }
        }
    }

    /// Whether session traffic should go out now rather than in the next restore. Checked
    /// under the session lock, which the restore also holds while it runs and clears the flag:
    /// so each subscription or retained message goes out once per connection, not twice (a
    /// second SUBSCRIBE would make the broker resend its retained messages).
    private var canSendNow: Bool {
        state.withLock { $0.isConnected && !$0.sessionNeedsRestore }
    }

    /// Whether the client currently has an accepted connection.
    public var isConnected: Bool {
        state.withLock { $0.isConnected }
    }

    /// A snapshot of the client's counters.
    public var statistics: MQTTStatistics {
        state.withLock { $0.statistics }
    }

    private func failConnectionWaiter(_ id: Int, with error: any Error) {
        state.withLock { $0.connectionWaiters.fail(id, with: error) }
    }

    func finishStreams() {
        messageContinuation.finish()
        eventContinuation.finish()
    }

    /// Hands an event to the stream, counting it if the buffer had to drop one.
    func emit(_ event: MQTTEvent) {
        if case .dropped = eventContinuation.yield(event) {
            state.withLock { $0.statistics.droppedEvents += 1 }
        }
    }
}
