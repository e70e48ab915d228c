import Locks

import struct Synchronization.Atomic

/// Page frames waiting for the bridge's answer, each answered once: by the reply, or by `nil` when the
/// time is up or the waiting task is cancelled.
final class ReplyWaiters: Sendable {
    /// What identifies a reply: the correlation data of an MQTT 5 response, or (MQTT 3.1.1) the topic the
    /// bridge answers on and the command's name, first come first served.
    enum Key: Hashable, Sendable {
        case correlation(String)
        case plain(topic: String, name: String)
    }

    private struct Waiter {
        var key: Key
        var continuation: CheckedContinuation<String?, Never>
        var timer: Task<Void, Never>?
    }

    private let waiters = Mutex<[Int: Waiter]>([:])
    private let counter = Atomic<Int>(0)

    /// A fresh number (tickets, correlation data).
    func nextNumber() -> Int { counter.add(1, ordering: .relaxed).newValue }

    /// Registers a wait for the reply under `key`, then runs `send`; returns the reply, or nil after
    /// `timeout`. An error from `send` ends the wait and is thrown.
    func wait(for key: Key, timeout: Duration, send: () throws -> Void) async throws -> String? {
        let ticket = nextNumber()
        var sendError: (any Error)?
        let reply = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                waiters.withLock { $0[ticket] = Waiter(key: key, continuation: continuation) }
                do {
                    try send()
                } catch {
                    sendError = error
                    resume(ticket, with: nil)
                    return
                }
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    self.resume(ticket, with: nil)
                }
                // The reply may have come already: then the timer has nothing left to end.
                let kept = waiters.withLock { waiters -> Bool in
                    guard waiters[ticket] != nil else { return false }
                    waiters[ticket]?.timer = timer
                    return true
                }
                if !kept { timer.cancel() }
            }
        } onCancel: {
            resume(ticket, with: nil)
        }
        if let sendError { throw sendError }
        return reply
    }

    /// Hands `payload` to the oldest waiter under `key`; false when none waits.
    @discardableResult
    func deliver(_ payload: String, to key: Key) -> Bool {
        let waiter = waiters.withLock { waiters -> Waiter? in
            guard let ticket = waiters.filter({ $0.value.key == key }).keys.min() else { return nil }
            return waiters.removeValue(forKey: ticket)
        }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(returning: payload)
        return waiter != nil
    }

    private func resume(_ ticket: Int, with payload: String?) {
        let waiter = waiters.withLock { $0.removeValue(forKey: ticket) }
        waiter?.timer?.cancel()
        waiter?.continuation.resume(returning: payload)
    }
}
