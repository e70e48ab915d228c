import DBus
import Glibc
import Locks

/// The application's end of each AcquireNotify socket, by characteristic UUID.
///
/// A stack that finds `NotifyAcquired` on a characteristic asks for a socket instead of calling
/// StartNotify (bluetoothd's gatt-database on the first CCC write; BlueZoo when a central acquires):
/// one `SOCK_SEQPACKET` packet is one notification. The stack closes its end when the last subscriber
/// leaves or the link drops; the application notices the hang-up on its bus connection's thread.
final class GattNotifySockets: Sendable {
    private let connection: DBusConnection
    private let sockets = Mutex<[String: Int32]>([:])

    init(connection: DBusConnection) {
        self.connection = connection
    }

    func isAcquired(_ uuid: String) -> Bool { sockets.withLock { $0[uuid] != nil } }

    /// A socket pair for `uuid`: keeps one end and returns the other, to be handed to the stack.
    /// `released` runs once the stack has closed its end (or ``releaseAll()`` ran).
    func acquire(_ uuid: String, released: @escaping @Sendable () -> Void) throws -> Int32 {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw DBusError(name: "org.bluez.Error.Failed", message: "socketpair: errno \(errno)")
        }
        let ours = pair[0]
        _ = fcntl(ours, F_SETFL, fcntl(ours, F_GETFL) | O_NONBLOCK)
        sockets.withLock { $0[uuid] = ours }
        connection.watch(ours) { [weak self] hungUp in
            // The stack writes nothing but indication confirmations; read them away, end on EOF.
            let open = SeqPacket.drain(ours) { _ in }
            if hungUp || !open, self?.release(uuid, socket: ours) == true { released() }
        }
        return pair[1]
    }

    /// Sends `bytes` as one packet when `uuid` is acquired; false when it is not (notify on the bus).
    /// A full socket drops the packet, as a stack that cannot keep up with the application would.
    func send(_ bytes: [UInt8], for uuid: String) -> Bool {
        guard let socket = sockets.withLock({ $0[uuid] }) else { return false }
        _ = bytes.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
        return true
    }

    /// Closes the socket of `uuid` (a StopNotify while acquired); false when there was none.
    func release(_ uuid: String) -> Bool {
        guard let socket = sockets.withLock({ $0[uuid] }) else { return false }
        return release(uuid, socket: socket)
    }

    /// Closes every socket, as when the stack that held them went away; returns their UUIDs.
    func releaseAll() -> [String] {
        let all = sockets.withLock { sockets in
            defer { sockets = [:] }
            return sockets
        }
        for (_, socket) in all {
            connection.unwatch(socket)
            close(socket)
        }
        return Array(all.keys)
    }

    /// Closes `socket` if it is still the one of `uuid`; true when this call did.
    private func release(_ uuid: String, socket: Int32) -> Bool {
        connection.unwatch(socket)
        let current = sockets.withLock { sockets -> Bool in
            guard sockets[uuid] == socket else { return false }
            sockets[uuid] = nil
            return true
        }
        if current { close(socket) }
        return current
    }
}
