import WakePipe

/// The client's mutable state, always accessed under the client's state lock. Nothing in here
/// calls libmosquitto, so the lock can be taken inside libmosquitto callbacks without risking a
/// lock-order inversion with libmosquitto's own mutexes.
struct ClientState {
    enum Lifecycle {
        case idle, running, stopping, stopped
    }

    var lifecycle = Lifecycle.idle
    var isConnected = false
    var hasEverConnected = false
    /// Set by the CONNACK callback, consumed by the I/O thread, which then restores the session
    /// outside the callback (libmosquitto holds its callback mutex during callbacks).
    var sessionNeedsRestore = false
    /// Failed attempts since the last successful CONNACK; drives the backoff.
    var failedAttempts = 0
    /// What the last failed attempt ran into, for timeout errors.
    var lastError: String?
    /// The broker's refusal was recorded as `lastError` by the CONNACK callback: the loop's own failure
    /// that follows (the closed connection) must not overwrite the broker's reason.
    var refusalRecorded = false
    /// A failure that retrying will not fix by itself (refused CONNACK, TLS): reported to
    /// `connected(timeout:)` at once instead of after the timeout.
    var lastFatalError: MQTTError?
    var statistics = MQTTStatistics()
    /// Publishes handed to libmosquitto that it has not reported sent (QoS 0) or acknowledged (QoS 1, 2):
    /// a clean stop waits for them, so the last state before a shutdown is not lost behind the
    /// broker's in-flight window.
    var unfinishedPublishes = 0
    /// The broker's socket's registration with the host thread while it rides on one (`ride(on:)`), and
    /// the code it failed with there.
    var riding: HostedDescriptor?
    var ridingFailure: Int32?
    /// When the host thread last served the socket: a host that stops ticking (its bus connection closed)
    /// gives the socket back.
    var lastServed = ContinuousClock.now
    var connectionWaiters = Waiters<Void>()
    var stopWaiters: [CheckedContinuation<Void, Never>] = []
}

/// Continuations waiting for one outcome, keyed so that each can be cancelled or timed out on
/// its own. Cancellation may arrive before the continuation is registered; `cancelledEarly`
/// remembers it so the registration fails at once instead of hanging.
struct Waiters<Value: Sendable> {
    private var nextID = 0
    private var pending: [Int: CheckedContinuation<Value, any Error>] = [:]
    private var cancelledEarly: [Int: any Error] = [:]

    mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    /// Registers `continuation`, or resumes it at once if its wait already ended.
    mutating func add(_ id: Int, _ continuation: CheckedContinuation<Value, any Error>) {
        if let error = cancelledEarly.removeValue(forKey: id) {
            continuation.resume(throwing: error)
        } else {
            pending[id] = continuation
        }
    }

    /// Ends one wait with `error` (timeout, cancellation), registered or not yet.
    mutating func fail(_ id: Int, with error: any Error) {
        if let continuation = pending.removeValue(forKey: id) {
            continuation.resume(throwing: error)
        } else {
            cancelledEarly[id] = error
        }
    }

    /// Ends one wait that already finished, dropping any leftover early-cancel record.
    mutating func forget(_ id: Int) {
        cancelledEarly[id] = nil
    }

    mutating func resumeAll(returning value: Value) {
        let all = pending
        pending = [:]
        for continuation in all.values { continuation.resume(returning: value) }
    }

    mutating func resumeAll(throwing error: any Error) {
        let all = pending
        pending = [:]
        for continuation in all.values { continuation.resume(throwing: error) }
    }
}
