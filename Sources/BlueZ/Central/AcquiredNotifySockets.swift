import DBus
import Glibc
import Locks

/// Notifications read from AcquireNotify sockets, polled on the bus connection's own thread and handed
/// to the router as PropertiesChanged values are: one `SOCK_SEQPACKET` packet is one notification, and
/// neither dbus-daemon nor a signal's decoding stands between the device and its consumer.
///
/// BlueZ closes its end when the device disconnects; closing ours releases the subscription.
final class AcquiredNotifySockets: Sendable {
    private struct Held {
        var socket: Int32
        var generation: UInt64
    }

    private let connection: DBusConnection
    private let router: NotificationRouter
    private let held = Mutex<[String: Held]>([:])

    init(connection: DBusConnection, router: NotificationRouter) {
        self.connection = connection
        self.router = router
    }

    /// Reads `socket` into the router's stream of `path` (the one of `generation`) until either side closes.
    func start(_ socket: Int32, path: String, generation: UInt64) {
        // libdbus hands over a close-on-exec duplicate; only blocking is left to change.
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
        let previous = held.withLock { held in
            defer { held[path] = Held(socket: socket, generation: generation) }
            return held[path]
        }
        if let previous { stop(previous, path: path) }
        let router = self.router
        connection.watch(socket) { [weak self] hungUp in
            let open = Self.drain(socket, to: router, path: path)
            if hungUp || !open { self?.ended(path, socket: socket) }
        }
    }

    func isHeld(_ path: String) -> Bool { held.withLock { $0[path] != nil } }

    /// Releases the subscription of `path`: what arrived before is delivered, then the stream ends.
    func release(_ path: String) {
        guard let entry = held.withLock({ $0.removeValue(forKey: path) }) else { return }
        stop(entry, path: path)
    }

    /// Releases every subscription at `prefix` or below it (a device that goes away).
    func release(under prefix: String) {
        let entries = held.withLock { held in
            let keys = held.keys.filter { $0 == prefix || $0.hasPrefix(prefix + "/") }
            return keys.compactMap { key in held.removeValue(forKey: key).map { (key, $0) } }
        }
        for (path, entry) in entries { stop(entry, path: path) }
    }

    func releaseAll() {
        let entries = held.withLock { held in
            defer { held = [:] }
            return held
        }
        for (path, entry) in entries { stop(entry, path: path) }
    }

    /// The other side closed: forget the socket and end its stream.
    private func ended(_ path: String, socket: Int32) {
        let entry = held.withLock { held -> Held? in
            guard held[path]?.socket == socket else { return nil }
            return held.removeValue(forKey: path)
        }
        if let entry { stop(entry, path: path) }
    }

    /// Once unwatched, no other thread reads the socket: drain it here, close it, end the stream.
    private func stop(_ entry: Held, path: String) {
        connection.unwatch(entry.socket)
        _ = Self.drain(entry.socket, to: router, path: path)
        close(entry.socket)
        router.close(path, generation: entry.generation)
    }

    /// Hands every packet waiting to the router; false once the socket has reached its end or failed.
    private static func drain(_ socket: Int32, to router: NotificationRouter, path: String) -> Bool {
        SeqPacket.drain(socket) { router.deliver(Array($0), to: path) }
    }
}
