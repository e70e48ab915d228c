import DBus

/// Sends notifications one at a time, in order, with a minimum gap: `emit` puts each on its way (a
/// PropertiesChanged on `Value`, or a packet on an acquired socket).
///
/// Why pace: a burst of signals arrives at the stack all at once, and BlueZoo (Python) and many D-Bus
/// clients handle a flood badly (bluezoo.md §2: dbus-fast drops its connection on EAGAIN). A real link
/// cannot deliver faster than its connection interval anyway.
final class GattNotificationPacer: Sendable {
    private enum Item: Sendable {
        case value(path: String, bytes: [UInt8])
        case barrier(CheckedContinuation<Void, Never>)
    }

    private let continuation: AsyncStream<Item>.Continuation

    /// `sent` is told of each value once it is on the bus.
    init(
        minimumInterval: Duration, emit: @escaping @Sendable (_ path: String, _ bytes: [UInt8]) -> Void,
        sent: (@Sendable (String, [UInt8]) -> Void)? = nil
    ) {
        let (stream, continuation) = AsyncStream<Item>.makeStream()
        self.continuation = continuation
        // The task owns the stream and ends when `deinit` finishes it.
        Task {
            for await item in stream {
                switch item {
                case .value(let path, let bytes):
                    emit(path, bytes)
                    sent?(path, bytes)
                    try? await Task.sleep(for: minimumInterval)
                case .barrier(let waiter):
                    waiter.resume()
                }
            }
        }
    }

    deinit { continuation.finish() }

    /// Queues one notification.
    func send(_ bytes: [UInt8], from path: String) {
        continuation.yield(.value(path: path, bytes: bytes))
    }

    /// Returns once everything queued before the call has been sent.
    func flush() async {
        await withCheckedContinuation { waiter in
            if case .terminated = continuation.yield(.barrier(waiter)) { waiter.resume() }
        }
    }
}
