import Foundation

/// Runs CPU-bound `work` on a thread of its own instead of on Swift concurrency's cooperative pool, and waits for it.
///
/// The pool has one thread per core, two on these machines. A test that computes for seconds on one of them (a fleet
/// simulation) left every other test's tasks one thread, and with a second such test none: in-memory gateways whose
/// fleet counts a claim for 3 s saw their timers fire 5 s late, and their tests failed by chance. A thread of its own
/// competes for the cores under the kernel's scheduler, which shares them.
public func onOwnThread<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: work()) }
        thread.name = "cpu-bound test work"
        thread.start()
    }
}
