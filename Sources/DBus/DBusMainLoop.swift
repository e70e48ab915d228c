import CDBus
import Dispatch
import Glibc

/// Drives one libdbus connection from a serial dispatch queue: a read or write source per enabled
/// watch, a timer per enabled timeout (without these, call timeouts never fire), and a dispatch pass
/// whenever libdbus has queued incoming messages.
///
/// Every method runs on `queue`; libdbus calls back into it only from calls made on that queue.
final class DBusMainLoop: @unchecked Sendable {
    private let connection: OpaquePointer
    private let queue: DispatchQueue
    private var watches: [OpaquePointer: [any DispatchSourceProtocol]] = [:]
    private var timeouts: [OpaquePointer: any DispatchSourceTimer] = [:]
    private var peerCheck: (any DispatchSourceTimer)?

    init(connection: OpaquePointer, queue: DispatchQueue) {
        self.connection = connection
        self.queue = queue
    }

    /// Installs the glue. The loop must stay alive until ``uninstall()``.
    func install() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(
            connection,
            { watch, data in DBusMainLoop.from(data).addWatch(watch!) },
            { watch, data in DBusMainLoop.from(data).removeWatch(watch!) },
            { watch, data in DBusMainLoop.from(data).toggleWatch(watch!) },
            me, nil)
        dbus_connection_set_timeout_functions(
            connection,
            { timeout, data in DBusMainLoop.from(data).addTimeout(timeout!) },
            { timeout, data in DBusMainLoop.from(data).removeTimeout(timeout!) },
            { timeout, data in DBusMainLoop.from(data).toggleTimeout(timeout!) },
            me, nil)
        dbus_connection_set_dispatch_status_function(
            connection,
            { _, status, data in
                if status == DBUS_DISPATCH_DATA_REMAINS { DBusMainLoop.from(data).scheduleDispatch() }
            },
            me, nil)
        scheduleDispatch()  // messages may already be queued from the registration handshake
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + Self.peerCheckInterval, repeating: Self.peerCheckInterval)
        timer.setEventHandler { [unowned self] in self.readIfPeerGone() }
        timer.resume()
        peerCheck = timer
    }

    /// How often the socket is checked for a bus that went away unnoticed.
    static let peerCheckInterval = DispatchTimeInterval.seconds(1)

    func uninstall() {
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
        for sources in watches.values { sources.forEach { $0.cancel() } }
        for timer in timeouts.values { timer.cancel() }
        peerCheck?.cancel()
        peerCheck = nil
        watches = [:]
        timeouts = [:]
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> DBusMainLoop {
        Unmanaged<DBusMainLoop>.fromOpaque(data!).takeUnretainedValue()
    }

    func scheduleDispatch() {
        queue.async { [self] in
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
        }
    }

    // MARK: Watches

    private func addWatch(_ watch: OpaquePointer) -> dbus_bool_t {
        var sources: [any DispatchSourceProtocol] = []
        if dbus_watch_get_enabled(watch) != 0 {
            let fd = dbus_watch_get_unix_fd(watch)
            let flags = dbus_watch_get_flags(watch)
            if flags & DBUS_WATCH_READABLE.rawValue != 0 {
                let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
                source.setEventHandler { [unowned self] in self.handle(watch, DBUS_WATCH_READABLE.rawValue) }
                sources.append(source)
            }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 {
                let source = DispatchSource.makeWriteSource(fileDescriptor: fd, queue: queue)
                source.setEventHandler { [unowned self] in self.handle(watch, DBUS_WATCH_WRITABLE.rawValue) }
                sources.append(source)
            }
        }
        watches[watch] = sources
        sources.forEach { $0.resume() }
        return 1
    }

    private func removeWatch(_ watch: OpaquePointer) {
        // Sources are cancelled, never left suspended: libdispatch traps on releasing a suspended source.
        watches.removeValue(forKey: watch)?.forEach { $0.cancel() }
    }

    private func toggleWatch(_ watch: OpaquePointer) {
        removeWatch(watch)
        _ = addWatch(watch)
    }

    private func handle(_ watch: OpaquePointer, _ flags: UInt32) {
        guard watches[watch] != nil else { return }
        dbus_watch_handle(watch, flags)
        while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
    }

    /// libdispatch does not always report the end of the socket: when dbus-daemon dies while a write
    /// is under way, the descriptor can drop out of its epoll set, the read source never fires, and
    /// calls in flight would wait forever. Once a second, a socket whose peer hung up is read here to
    /// its end, which disconnects the connection the ordinary way.
    private func readIfPeerGone() {
        for (watch, sources) in watches where !sources.isEmpty && dbus_watch_get_flags(watch) & DBUS_WATCH_READABLE.rawValue != 0 {
            var probe = pollfd(fd: dbus_watch_get_unix_fd(watch), events: Int16(POLLIN), revents: 0)
            guard poll(&probe, 1, 0) == 1, probe.revents & Int16(POLLHUP | POLLERR) != 0 else { continue }
            // libdbus reads a bounded amount per call: go on until the connection sees the end.
            var rounds = 0
            while dbus_connection_get_is_connected(connection) != 0, watches[watch]?.isEmpty == false, rounds < 10_000 {
                dbus_watch_handle(watch, DBUS_WATCH_READABLE.rawValue | DBUS_WATCH_HANGUP.rawValue)
                rounds += 1
            }
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
            return
        }
    }

    // MARK: Timeouts

    private func addTimeout(_ timeout: OpaquePointer) -> dbus_bool_t {
        guard dbus_timeout_get_enabled(timeout) != 0 else { return 1 }
        let interval = DispatchTimeInterval.milliseconds(Int(dbus_timeout_get_interval(timeout)))
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [unowned self] in
            guard self.timeouts[timeout] != nil else { return }
            dbus_timeout_handle(timeout)
            while dbus_connection_dispatch(self.connection) == DBUS_DISPATCH_DATA_REMAINS {}
        }
        timeouts[timeout] = timer
        timer.resume()
        return 1
    }

    private func removeTimeout(_ timeout: OpaquePointer) {
        timeouts.removeValue(forKey: timeout)?.cancel()
    }

    private func toggleTimeout(_ timeout: OpaquePointer) {
        removeTimeout(timeout)
        _ = addTimeout(timeout)
    }
}
