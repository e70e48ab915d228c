import Locks

/// A restart asked for once (`request/restart`), awaited by `RestartService`. The wait ends when its task is
/// cancelled too, which a continuation kept until fired would not.
final class RestartSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    private let fired = Mutex(false)

    init() { (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1)) }

    func request() {
        fired.withLock { $0 = true }
        continuation.yield()
        continuation.finish()
    }

    var wasRequested: Bool { fired.withLock { $0 } }

    /// Returns once a restart is requested, or when the calling task is cancelled.
    func requested() async {
        for await _ in stream { return }
    }
}
