import Locks
import Logging

/// A re-armable "the link is down" event: a session waits on it while connected.
final class LinkLoss: Sendable {
    /// Why the link went down: a drop is news for the device's users (`error`), an ending the bridge or
    /// the device chose (shutdown, `disconnect`, a belt switching off) is not.
    enum Reason: Sendable {
        case dropped, ended
    }

    private struct State {
        var armed = false
        /// A loss signalled while armed but before anyone waited: a link can drop between the end of
        /// a connection's set-up and the session's wait (seen on the real stack, where a killed
        /// peripheral application took its GATT services away right after the handshake). The first one counts.
        var pending: Reason?
        /// Whether everything pending is BlueZ reporting the link's end (`Connected: false`, its services removed:
        /// `disconnectReported`), which `forgetLateDisconnect` may check against the link as BlueZ holds it now.
        var pendingIsDisconnect = false
        /// Signals taken while armed: a check that suspends knows whether another came meanwhile.
        var signals = 0
        var continuation: CheckedContinuation<Reason, Never>?
        /// The gateway is taking the link down itself (`expectEnding`): a drop reported meanwhile is that ending.
        var endingExpected = false
    }

    private let waiter = Mutex(State())

    /// Starts a connected period; a loss reported before this is forgotten.
    func arm() { waiter.withLock { $0 = State(armed: true) } }

    /// Returns when ``signal(_:)`` is called after ``arm()`` (or was already), with its reason.
    func wait() async -> Reason {
        await withCheckedContinuation { continuation in
            let now = waiter.withLock { state -> Reason? in
                if let pending = state.pending {
                    state = State()
                    return pending
                }
                guard state.armed else { return .ended }
                state.continuation = continuation
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Says that the gateway is about to end the link itself (a belt switching off, a band told to power off, a
    /// shutdown): BlueZ reports the drop while the disconnect is under way, often before it returns, and that drop
    /// is the ending, not a lost link. Holds until the next `arm()`.
    func expectEnding() {
        waiter.withLock { state in
            if state.armed { state.endingExpected = true }
        }
    }

    func signal(_ reason: Reason = .dropped) { signal(reason, disconnect: false) }

    /// BlueZ says the device's `Connected` is false, or removed its GATT services: the link ended, or, when it comes
    /// while a connection is being set up, possibly the one before it did (see `forgetLateDisconnect`).
    func disconnectReported() { signal(.dropped, disconnect: true) }

    private func signal(_ reason: Reason, disconnect: Bool) {
        let (continuation, reason) = waiter.withLock { state -> (CheckedContinuation<Reason, Never>?, Reason) in
            let reason = state.endingExpected ? .ended : reason
            guard let continuation = state.continuation else {
                if state.armed {
                    state.signals += 1
                    state.pendingIsDisconnect = (state.pending == nil || state.pendingIsDisconnect) && disconnect
                    state.pending = state.pending ?? reason
                }
                return (nil, reason)
            }
            state = State()
            return (continuation, reason)
        }
        continuation?.resume(returning: reason)
    }

    /// Forgets a pending loss that is only BlueZ's reports of a link's end (`disconnectReported`) when `linkIsUp` says
    /// the device is connected now; true when it did. The disconnect that took a failed attempt's half-made link down
    /// is reported over the bus when BlueZ gets to it (`Connected: false`, its services removed): under load (six
    /// bands at once on the real stack, a host twice as slow) that was after the next attempt had started, and the
    /// new link, set up and well, was ended at once as lost. The check runs once the set-up is done, so the cache
    /// holds the new link's state by then; a drop of this link leaves it down, and any other loss meanwhile keeps the
    /// pending one.
    func forgetLateDisconnect(
        isolation: isolated (any Actor)? = #isolation, if linkIsUp: () async -> Bool
    ) async -> Bool {
        let seen = waiter.withLock { state in state.pending != nil && state.pendingIsDisconnect ? state.signals : nil }
        guard let seen, await linkIsUp() else { return false }
        return waiter.withLock { state in
            guard state.signals == seen, state.pending != nil else { return false }
            state.pending = nil
            state.pendingIsDisconnect = false
            return true
        }
    }
}

/// The life of every session: connect and set up, stay until the link is lost, tear down, wait a
/// jittered backoff, again, until the task is cancelled (or once only, without `reconnect`). `setUpFailed` runs after
/// a failed set-up's half-made link is down (`abandon`), before the teardown.
enum SessionLifecycle {
    static func run(
        isolation: isolated (any Actor)? = #isolation,
        logger: Logger, loss: LinkLoss, reconnect: Bool = true,
        connect: () async throws -> Void,
        linkIsUp: () async -> Bool = { false },
        abandon: () async -> Void,
        setUpFailed: () async -> Void = {},
        tearDown: () async -> Void,
        failed: (DeviceFailure) -> Void = { _ in }
    ) async {
        var attempt = 0
        while !Task.isCancelled {
            loss.arm()
            do {
                try await connect()
                attempt = 0
                if await loss.forgetLateDisconnect(if: linkIsUp) {
                    logger.info("a disconnect reported during the set-up was of the link before; this one is up")
                }
                let reason = await loss.wait()
                logger.info("disconnected")
                if reason == .dropped, !Task.isCancelled {
                    failed(DeviceFailure(.linkLost, "the link to the device dropped"))
                }
            } catch {
                logger.warning("connection failed: \(error)")
                if !Task.isCancelled { failed((error as? DeviceFailure) ?? DeviceFailure(.connectFailed, "\(error)")) }
                // A half-made link (connected without services, or a handshake that failed) would make the
                // next Connect a no-op: take it down first.
                await abandon()
                await setUpFailed()
            }
            await tearDown()
            guard !Task.isCancelled else { break }
            guard reconnect else {
                logger.info("not reconnecting (reconnect: manual)")
                break
            }
            attempt += 1
            let delay = ReconnectBackoff.delay(attempt: attempt)
            logger.info("reconnecting", metadata: ["attempt": "\(attempt)", "delay": "\(delay)"])
            try? await Task.sleep(for: delay)
        }
        await tearDown()
    }
}
