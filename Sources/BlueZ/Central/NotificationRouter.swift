import Locks

import struct Synchronization.Atomic

/// Takes a notification's bytes on the thread that received them; false hands them to the stream.
public typealias NotificationLane = @Sendable ([UInt8]) -> Bool

/// Routes characteristic Value changes to notification streams.
///
/// A stream may have a lane: a synchronous consumer that takes values on the D-Bus thread itself, so
/// that a high-rate value is decoded and published without waking another thread; what it declines
/// goes to the stream.
///
/// BlueZ reports notifications and ReadValue results the same way (PropertiesChanged on Value), so
/// a read's echo is taken out: while a read of a characteristic is in flight its Value changes are
/// held back, and when the read returns, one change carrying the read's bytes is dropped.
final class NotificationRouter: Sendable {
    private struct Route {
        var continuation: AsyncStream<[UInt8]>.Continuation
        var lane: NotificationLane?
        /// Tells a stream from the one that replaces it on the same path.
        var generation: UInt64
        var readsInFlight = 0
        var heldBack: [[UInt8]] = []
        var expectedEcho: [UInt8]?
        var echoDeadline = ContinuousClock.now

        /// What becomes of a value that arrives now: held back behind a read, dropped as a read's echo,
        /// or handed on. Mutated in place in the table: no copy of the route per value.
        mutating func take(_ bytes: [UInt8]) -> Delivery {
            if readsInFlight > 0 {
                heldBack.append(bytes)
                return .kept
            }
            // An echo may still come after other values, until its window closes.
            if let echo = expectedEcho {
                if ContinuousClock.now >= echoDeadline {
                    expectedEcho = nil
                } else if echo == bytes {
                    expectedEcho = nil
                    return .kept
                }
            }
            return .handOn(lane, continuation)
        }
    }

    private enum Delivery {
        case nobodyListens
        case kept
        case handOn(NotificationLane?, AsyncStream<[UInt8]>.Continuation)
    }

    /// How long after a read its echo may still arrive; a later equal value is a real notification.
    private static let echoWindow = Duration.milliseconds(250)

    private let routes = Mutex<[String: Route]>([:])
    private let generations = Atomic<UInt64>(0)
    private let droppedValues = Atomic<Int>(0)

    /// Values dropped because a stream's consumer fell 1 024 values behind its device (oldest first).
    var droppedCount: Int { droppedValues.load(ordering: .relaxed) }

    /// A new stream for `path`, replacing (and ending) any earlier one.
    func open(_ path: String, lane: NotificationLane? = nil) -> AsyncStream<[UInt8]> {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(1024))
        let previous = routes.withLock { routes in
            let old = routes[path]?.continuation
            routes[path] = Route(
                continuation: continuation, lane: lane, generation: generations.add(1, ordering: .relaxed).newValue)
            return old
        }
        previous?.finish()
        return stream
    }

    func close(_ path: String) {
        routes.withLock { $0.removeValue(forKey: path) }?.continuation.finish()
    }

    /// The stream now open on `path`, if any.
    func generation(of path: String) -> UInt64? { routes.withLock { $0[path]?.generation } }

    /// Ends the stream on `path` if it is still the one of `generation`, not a newer one.
    func close(_ path: String, generation: UInt64) {
        let ended = routes.withLock { routes -> AsyncStream<[UInt8]>.Continuation? in
            guard routes[path]?.generation == generation else { return nil }
            return routes.removeValue(forKey: path)?.continuation
        }
        ended?.finish()
    }

    /// Ends every stream whose path is `prefix` or below it.
    func close(under prefix: String) {
        let ended = routes.withLock { routes in
            let keys = routes.keys.filter { $0 == prefix || $0.hasPrefix(prefix + "/") }
            return keys.compactMap { routes.removeValue(forKey: $0)?.continuation }
        }
        for continuation in ended { continuation.finish() }
    }

    func closeAll() {
        let ended = routes.withLock { routes in
            defer { routes = [:] }
            return routes.values.map(\.continuation)
        }
        for continuation in ended { continuation.finish() }
    }

    /// A Value change; returns false when nobody listens on `path`. Called on the D-Bus thread, one
    /// value after another, so a lane sees them in order; it runs outside the router's lock.
    @discardableResult
    func deliver(_ bytes: [UInt8], to path: String) -> Bool {
        let delivery = routes.withLock { routes -> Delivery in
            guard let index = routes.index(forKey: path) else { return .nobodyListens }
            return routes.values[index].take(bytes)
        }
        switch delivery {
        case .nobodyListens: return false
        case .kept: return true
        case .handOn(let lane, let continuation):
            hand(bytes, lane: lane, continuation: continuation)
            return true
        }
    }

    /// To the lane if it takes the value, else to the stream.
    private func hand(_ bytes: [UInt8], lane: NotificationLane?, continuation: AsyncStream<[UInt8]>.Continuation) {
        if let lane, lane(bytes) { return }
        if case .dropped = continuation.yield(bytes) {
            droppedValues.add(1, ordering: .relaxed)
        }
    }

    func readStarted(_ path: String) {
        routes.withLock { $0[path]?.readsInFlight += 1 }
    }

    /// The read returned `bytes` (nil when it failed). Values held back are handed on under the lock, so
    /// that a value the D-Bus thread delivers next cannot overtake them.
    func readFinished(_ path: String, bytes: [UInt8]?) {
        routes.withLock { routes in
            guard var route = routes[path] else { return }
            route.readsInFlight -= 1
            var echo = bytes
            for held in route.heldBack {
                if held == echo { echo = nil } else { hand(held, lane: route.lane, continuation: route.continuation) }
            }
            route.heldBack = []
            route.expectedEcho = echo  // the echo may still be on its way
            route.echoDeadline = ContinuousClock.now + Self.echoWindow
            routes[path] = route
        }
    }
}
