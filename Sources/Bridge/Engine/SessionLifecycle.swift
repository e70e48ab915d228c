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
        /// peripheral application took its GATT services away right after the handshake).
        var pending: Reason?
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

    func signal(_ reason: Reason = .dropped) {
        let (continuation, reason) = waiter.withLock { state -> (CheckedContinuation<Reason, Never>?, Reason) in
            let reason = state.endingExpected ? .ended : reason
            guard let continuation = state.continuation else {
                if state.armed { state = State(pending: reason) }
                return (nil, reason)
            }
            state = State()
            return (continuation, reason)
        }
        continuation?.resume(returning: reason)
    }
}

/// The life of every session: connect and set up, stay until the link is lost, tear down, wait a
/// jittered backoff, again, until the task is cancelled (or once only, without `reconnect`).
enum SessionLifecycle {
    static func run(
        isolation: isolated (any Actor)? = #isolation,
        logger: Logger, loss: LinkLoss, reconnect: Bool = true,
        connect: () async throws -> Void,
        abandon: () async -> Void,
        tearDown: () async -> Void,
        failed: (DeviceFailure) -> Void = { _ in }
    ) async {
        var attempt = 0
        while !Task.isCancelled {
            loss.arm()
            do {
                try await connect()
                attempt = 0
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
