import CDBus
import CEpoll
import Dispatch
import Glibc
import Locks
import WakePipe

/// Drives one libdbus connection from a thread of its own that polls the connection's socket: when it
/// is readable, the thread runs the connection's serial queue inline (`queue.sync` on an idle queue
/// runs on the calling thread), reads, and dispatches every message that arrived. A notification
/// thus wakes one thread, not libdispatch's event thread and then a worker.
///
/// libdbus's watches and timeouts are added, toggled and removed from calls made on `queue`; they are
/// kept in `table`, which the I/O thread reads before each poll. A change made elsewhere than on the
/// I/O thread wakes it through a pipe. Timeouts (call timeouts) are checked at least every
/// ``timeoutGranularityMs``. Descriptors of the connection's user (AcquireNotify sockets) sit in an epoll
/// set whose descriptor is polled in the same call, so that a notification read from one is handled on
/// this thread too, and a wake-up costs the kernel the descriptors that are ready, not all of them.
final class DBusMainLoop: @unchecked Sendable {
    private struct Watch {
        var descriptor: Int32
        var flags: UInt32
        var enabled: Bool
    }

    private struct Timeout {
        var intervalMs: Int
        var enabled: Bool
        var deadline: ContinuousClock.Instant
    }

    /// libdbus's objects by address (a pointer is not Sendable; its address is).
    private struct Table {
        var watches: [Int: Watch] = [:]
        var timeouts: [Int: Timeout] = [:]
        /// Descriptors of the connection's users (an AcquireNotify socket, the broker's), in
        /// `userDescriptors` too.
        var descriptors: [Int32: (registration: UInt64, handler: DescriptorHandler)] = [:]
        var nextRegistration: UInt64 = 0
        var running = true
    }

    /// Told on the I/O thread, on `queue`, what its descriptor is ready for, and ticked about once a second.
    typealias DescriptorHandler = @Sendable (DescriptorReadiness) -> Void

    private let connection: OpaquePointer
    private let queue: DispatchQueue
    private let table = Mutex(Table())
    private let wake: WakePipe
    /// The epoll set of the user's descriptors, level-triggered; changed from any thread (epoll_ctl needs no wake-up).
    /// Not private: a test checks that it is close-on-exec.
    let userDescriptors: Int32
    /// Queue-confined: false once uninstalled, so that a turn already waiting for the queue does nothing.
    private var installed = false
    /// Queue-confined: true while the I/O thread dispatches inline, which makes a queued dispatch pass redundant.
    private var dispatchingInline = false
    private let ioThread = Mutex<pthread_t?>(nil)
    /// I/O-thread-confined: when the user descriptors' handlers were last ticked.
    private var lastTick = ContinuousClock.now

    /// How late a call timeout may be noticed at most; a shorter one wakes the thread when it is added.
    /// An idle connection's thread wakes once a second.
    static let timeoutGranularityMs: Int32 = 1000

    init(connection: OpaquePointer, queue: DispatchQueue) throws {
        self.connection = connection
        self.queue = queue
        guard let wake = WakePipe() else {
            throw DBusError(
                name: DBusError.failedName, message: "cannot create the main loop's wake-up pipe: errno \(errno)")
        }
        self.wake = wake
        userDescriptors = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard userDescriptors >= 0 else {
            throw DBusError(
                name: DBusError.failedName, message: "cannot create the main loop's epoll set: errno \(errno)")
        }
    }

    deinit { close(userDescriptors) }

    /// Installs the glue and starts the I/O thread; called on `queue`. The loop stays alive until the
    /// thread has ended, after ``uninstall()``.
    func install() {
        assertConfined(to: queue)
        installed = true
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
        startThread()
    }

    /// Detaches from libdbus and ends the I/O thread; called on `queue`. Never waits for the thread,
    /// which may itself be waiting for the queue.
    func uninstall() {
        assertConfined(to: queue)
        installed = false
        dbus_connection_set_watch_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(connection, nil, nil, nil, nil, nil)
        dbus_connection_set_dispatch_status_function(connection, nil, nil, nil)
        table.withLock { $0 = Table(running: false) }
        wake.signal()
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> DBusMainLoop {
        Unmanaged<DBusMainLoop>.fromOpaque(data!).takeUnretainedValue()
    }

    /// Called on `queue` when libdbus has messages queued.
    func scheduleDispatch() {
        guard !dispatchingInline else { return }  // the I/O thread's turn dispatches them
        queue.async { [self] in
            guard installed else { return }
            while dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
        }
    }

    // MARK: The I/O thread

    private func startThread() {
        // The thread holds the loop until `run` returns.
        let thread = IOThread.start(name: "dbus-io") { [self] in run() }
        ioThread.withLock { $0 = thread }
    }

    private var onIOThread: Bool {
        ioThread.withLock { thread in thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    }

    private func run() {
        var descriptors: [pollfd] = []
        var polled: [Int] = []
        var ready: [(Int, UInt32)] = []
        var readable: [(Int32, DescriptorReadiness)] = []
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let (running, waitMs) = table.withLock { table -> (Bool, Int32) in
                descriptors.removeAll(keepingCapacity: true)
                polled.removeAll(keepingCapacity: true)
                for (watch, entry) in table.watches where entry.enabled {
                    var events: Int16 = 0
                    if entry.flags & DBUS_WATCH_READABLE.rawValue != 0 { events |= Int16(POLLIN) }
                    if entry.flags & DBUS_WATCH_WRITABLE.rawValue != 0 { events |= Int16(POLLOUT) }
                    descriptors.append(pollfd(fd: entry.descriptor, events: events, revents: 0))
                    polled.append(watch)
                }
                let now = ContinuousClock.now
                var wait = Self.timeoutGranularityMs
                for timeout in table.timeouts.values where timeout.enabled {
                    let left = now.duration(to: timeout.deadline)
                    wait = Int32(min(Double(wait), max(0, left / .milliseconds(1))))
                }
                return (table.running, wait)
            }
            guard running else { return }
            descriptors.append(pollfd(fd: userDescriptors, events: Int16(POLLIN), revents: 0))
            descriptors.append(pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0))
            let count = poll(&descriptors, nfds_t(descriptors.count), waitMs)
            if count < 0 && errno != EINTR { return }
            if descriptors[descriptors.count - 1].revents != 0 { wake.drain() }
            ready.removeAll(keepingCapacity: true)
            for (index, watch) in polled.enumerated() where descriptors[index].revents != 0 {
                ready.append((watch, Self.watchFlags(descriptors[index].revents)))
            }
            readable.removeAll(keepingCapacity: true)
            if descriptors[descriptors.count - 2].revents != 0 {
                let found = epoll_wait(userDescriptors, &events, Int32(events.count), 0)
                for event in events.prefix(max(0, Int(found))) {
                    readable.append((event.data.fd, Self.readiness(event.events)))
                }
            }
            queue.sync { turn(ready, readable) }
        }
    }

    /// On `queue`, on the I/O thread: handles what the poll found, fires due timeouts, dispatches.
    private func turn(_ ready: [(Int, UInt32)], _ readable: [(Int32, DescriptorReadiness)]) {
        assertConfined(to: queue)
        guard installed else { return }
        for (descriptor, readiness) in readable {
            // Looked up again: an earlier handler of this turn may have removed it.
            table.withLock { $0.descriptors[descriptor]?.handler }?(readiness)
        }
        tickIfDue()
        for (watch, flags) in ready where table.withLock({ $0.watches[watch]?.enabled == true }) {
            dbus_watch_handle(OpaquePointer(bitPattern: watch), flags)
        }
        let now = ContinuousClock.now
        let due = table.withLock { table -> [Int] in
            var due: [Int] = []
            for (timeout, var entry) in table.timeouts where entry.enabled && entry.deadline <= now {
                entry.deadline = now + .milliseconds(entry.intervalMs)
                table.timeouts[timeout] = entry
                due.append(timeout)
            }
            return due
        }
        for timeout in due where table.withLock({ $0.timeouts[timeout]?.enabled == true }) {
            dbus_timeout_handle(OpaquePointer(bitPattern: timeout))
        }
        dispatchingInline = true
        while installed, dbus_connection_dispatch(connection) == DBUS_DISPATCH_DATA_REMAINS {}
        dispatchingInline = false
    }

    /// About once a second, every user descriptor's handler hears `.tick` (the broker's keep-alive).
    private func tickIfDue() {
        let now = ContinuousClock.now
        guard now - lastTick >= .seconds(1) else { return }
        lastTick = now
        for handler in table.withLock({ $0.descriptors.values.map(\.handler) }) { handler(.tick) }
    }

    private static func readiness(_ events: UInt32) -> DescriptorReadiness {
        var readiness: DescriptorReadiness = []
        if events & EPOLLIN.rawValue != 0 { readiness.insert(.readable) }
        if events & EPOLLOUT.rawValue != 0 { readiness.insert(.writable) }
        if events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { readiness.insert(.hungUp) }
        return readiness
    }

    private static func watchFlags(_ revents: Int16) -> UInt32 {
        var flags: UInt32 = 0
        if revents & Int16(POLLIN) != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
        if revents & Int16(POLLOUT) != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
        if revents & Int16(POLLHUP) != 0 { flags |= DBUS_WATCH_HANGUP.rawValue }
        if revents & Int16(POLLERR) != 0 { flags |= DBUS_WATCH_ERROR.rawValue }
        return flags
    }

    /// A change the I/O thread did not make itself must reach its next poll.
    private func changed() {
        if !onIOThread { wake.signal() }
    }

    // MARK: The user's descriptors (on `queue`)

    /// Polls `descriptor` for reading from the next turn on; `handler` runs on the I/O thread.
    func watchDescriptor(_ descriptor: Int32, _ handler: @escaping DescriptorHandler) -> HostedDescriptor {
        assertConfined(to: queue)
        let registration = table.withLock { table in
            defer { table.nextRegistration += 1 }
            table.descriptors[descriptor] = (table.nextRegistration, handler)
            return table.nextRegistration
        }
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: descriptor))
        _ = epoll_ctl(userDescriptors, EPOLL_CTL_ADD, descriptor, &event)
        return HostedDescriptor(descriptor: descriptor, registration: registration)
    }

    /// Stops polling `descriptor`; its handler is not called again once this returns.
    func unwatchDescriptor(_ descriptor: Int32) {
        assertConfined(to: queue)
        _ = table.withLock { $0.descriptors.removeValue(forKey: descriptor) }
        _ = epoll_ctl(userDescriptors, EPOLL_CTL_DEL, descriptor, nil)
    }

    /// Ends `hosted`'s registration if it is still the descriptor's.
    func unwatch(_ hosted: HostedDescriptor) {
        guard isCurrent(hosted) else { return }
        unwatchDescriptor(hosted.descriptor)
    }

    /// Polls `hosted` for writing too, or no longer; from any thread (epoll_ctl needs no wake-up). Under
    /// the table's lock, so that it never touches a registration that has ended.
    func pollForWriting(_ hosted: HostedDescriptor, _ wanted: Bool) {
        table.withLock { table in
            guard table.descriptors[hosted.descriptor]?.registration == hosted.registration else { return }
            let events = EPOLLIN.rawValue | (wanted ? EPOLLOUT.rawValue : 0)
            var event = epoll_event(events: events, data: epoll_data_t(fd: hosted.descriptor))
            _ = epoll_ctl(userDescriptors, EPOLL_CTL_MOD, hosted.descriptor, &event)
        }
    }

    private func isCurrent(_ hosted: HostedDescriptor) -> Bool {
        table.withLock { $0.descriptors[hosted.descriptor]?.registration == hosted.registration }
    }

    // MARK: Watches (on `queue`)

    private func addWatch(_ watch: OpaquePointer) -> dbus_bool_t {
        assertConfined(to: queue)
        let entry = Watch(
            descriptor: dbus_watch_get_unix_fd(watch), flags: dbus_watch_get_flags(watch),
            enabled: dbus_watch_get_enabled(watch) != 0)
        table.withLock { $0.watches[Int(bitPattern: watch)] = entry }
        changed()
        return 1
    }

    private func removeWatch(_ watch: OpaquePointer) {
        assertConfined(to: queue)
        _ = table.withLock { $0.watches.removeValue(forKey: Int(bitPattern: watch)) }
        changed()
    }

    private func toggleWatch(_ watch: OpaquePointer) {
        assertConfined(to: queue)
        let enabled = dbus_watch_get_enabled(watch) != 0
        table.withLock { $0.watches[Int(bitPattern: watch)]?.enabled = enabled }
        changed()
    }

    // MARK: Timeouts (on `queue`)

    private func addTimeout(_ timeout: OpaquePointer) -> dbus_bool_t {
        assertConfined(to: queue)
        let interval = Int(dbus_timeout_get_interval(timeout))
        let entry = Timeout(
            intervalMs: interval, enabled: dbus_timeout_get_enabled(timeout) != 0,
            deadline: .now + .milliseconds(interval))
        table.withLock { $0.timeouts[Int(bitPattern: timeout)] = entry }
        // A call timeout is rarely shorter than the poll's own bound: no wake-up for it.
        if interval < Int(Self.timeoutGranularityMs) { changed() }
        return 1
    }

    private func removeTimeout(_ timeout: OpaquePointer) {
        assertConfined(to: queue)
        _ = table.withLock { $0.timeouts.removeValue(forKey: Int(bitPattern: timeout)) }
    }

    private func toggleTimeout(_ timeout: OpaquePointer) {
        assertConfined(to: queue)
        let enabled = dbus_timeout_get_enabled(timeout) != 0
        let interval = Int(dbus_timeout_get_interval(timeout))
        let key = Int(bitPattern: timeout)
        table.withLock { table in
            guard table.timeouts[key] != nil else { return }
            table.timeouts[key]?.enabled = enabled
            table.timeouts[key]?.intervalMs = interval
            table.timeouts[key]?.deadline = .now + .milliseconds(interval)
        }
        if enabled && interval < Int(Self.timeoutGranularityMs) { changed() }
    }
}
