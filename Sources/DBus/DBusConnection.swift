import CDBus
import Dispatch
import Locks
import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A private connection to a message bus, driven by its own serial queue.
///
/// Every libdbus call on the connection happens on `queue`, which also rules out the classic race
/// between `send_with_reply` and `pending_call_set_notify`. Losing the bus never exits the process
/// (libdbus's exit-on-disconnect is off): pending calls fail, signal streams end, and
/// ``disconnected`` fires.
public final class DBusConnection: @unchecked Sendable {
    let queue = DispatchQueue(label: "gatt2mqtt.dbus")
    let logger: Logger
    // All the state below is confined to `queue`.
    private(set) var raw: OpaquePointer?
    private(set) var mainLoop: DBusMainLoop?
    /// The same loop, for what any thread may do without the queue (`pollForWriting`): after ``close()`` it
    /// holds no descriptors, so that does nothing.
    let loopForAnyThread: DBusMainLoop
    private var subscriptions: [UInt64: Subscription] = [:]
    private var nextSubscriptionID: UInt64 = 0
    private var lostWaiters: [LossWaiter] = []
    /// Calls sent and not answered yet. libdbus does not complete them when the bus itself goes away,
    /// so losing the bus fails them here.
    private var inFlight: [ObjectIdentifier: PendingReply] = [:]
    private var lost = false
    /// Queue-confined, like the state above.
    private var byteTap: ByteTap?
    var objects: [String: DBusObject] = [:]
    var objectManagers: Set<String> = []

    /// The connection's unique name on the bus, e.g. `:1.42`.
    public let uniqueName: String

    /// The system bus as every BlueZ client finds it: `DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket.
    public static func system(logger: Logger = Logger(label: "dbus")) throws -> DBusConnection {
        let address =
            ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? "unix:path=/run/dbus/system_bus_socket"
        return try DBusConnection(address: address, logger: logger)
    }

    /// Opens a private connection to the bus at `address` and registers on it.
    public init(address: String, logger: Logger = Logger(label: "dbus")) throws {
        self.logger = logger
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        guard let connection = dbus_connection_open_private(address, &error) else {
            throw Self.error(from: error, fallback: "cannot connect to \(address)")
        }
        guard dbus_bus_register(connection, &error) != 0 else {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw Self.error(from: error, fallback: "cannot register on \(address)")
        }
        dbus_connection_set_exit_on_disconnect(connection, 0)
        uniqueName = String(cString: dbus_bus_get_unique_name(connection))
        let loop: DBusMainLoop
        do {
            loop = try DBusMainLoop(connection: connection, queue: queue)
        } catch {
            dbus_connection_close(connection)
            dbus_connection_unref(connection)
            throw error
        }
        loopForAnyThread = loop
        raw = connection
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
        queue.sync {
            dbus_connection_add_filter(
                connection, incomingMessageFilter, Unmanaged.passUnretained(self).toOpaque(), nil)
            loop.install()
            mainLoop = loop
        }
    }

    deinit {
        // The filter holds an unretained pointer to self: close on the queue so no dispatch runs meanwhile.
        if isOnQueue { closeOnQueue() } else { queue.sync { closeOnQueue() } }
    }

    /// Names the connection whose queue runs the current code (every connection's queue carries it).
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Whether the current code runs on this connection's queue.
    var isOnQueue: Bool { DispatchQueue.getSpecific(key: Self.queueKey) == ObjectIdentifier(self) }

    /// Closes the connection; pending calls fail and signal streams end. Idempotent.
    public func close() {
        queue.sync { closeOnQueue() }
    }

    private func closeOnQueue() {
        assertConfined(to: queue)
        guard let connection = raw else { return }
        raw = nil
        dbus_connection_remove_filter(connection, incomingMessageFilter, Unmanaged.passUnretained(self).toOpaque())
        mainLoop?.uninstall()
        mainLoop = nil
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        markLost()
    }

    /// True until the bus goes away or ``close()`` is called. Answered by the connection's queue, so a
    /// queue that is wedged never answers: a watchdog that waits for it stops pinging. The caller is
    /// suspended meanwhile, not a blocked thread of the cooperative pool.
    public var isConnected: Bool {
        get async {
            await withCheckedContinuation { continuation in
                queue.async { continuation.resume(returning: self.raw != nil && !self.lost) }
            }
        }
    }

    /// Returns when the bus connection is lost (or closed), or when the calling task is cancelled.
    public func disconnected() async {
        let waiter = LossWaiter()
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard waiter.install(continuation) else { return }
                queue.async {
                    if self.lost { waiter.resume() } else { self.lostWaiters.append(waiter) }
                }
            }
        } onCancel: {
            waiter.resume()
        }
    }

    private func markLost() {
        assertConfined(to: queue)
        guard !lost else { return }
        lost = true
        for (_, subscription) in subscriptions { subscription.continuation.finish() }
        subscriptions = [:]
        for waiter in lostWaiters { waiter.resume() }
        lostWaiters = []
        let unanswered = inFlight.values
        inFlight = [:]
        for waiter in unanswered {
            // Already forgotten above; and during deinit `self` must not be reached through it.
            waiter.finished = nil
            waiter.abandon(DBusError(name: DBusError.disconnectedName, message: "lost the bus before the reply"))
        }
    }

    // MARK: Calls

    /// Calls a method and returns its out-arguments; throws ``DBusError`` with the remote error's name.
    public func call(
        destination: String?, path: String, interface: String?, member: String,
        arguments: [DBusValue] = [], timeout: Duration = .seconds(25)
    ) async throws -> [DBusValue] {
        let message = try DBusMessage.methodCall(
            destination: destination, path: path, interface: interface, member: member)
        try message.append(arguments)
        let reply = try await send(message, timeout: timeout)
        if let error = reply.asError() { throw error }
        return reply.arguments()
    }

    /// A call made from a task that is already cancelled is still sent (a shutdown disconnects its
    /// devices from one): its cancellation handler runs, and is a no-op, before the call is queued.
    /// Cancelled later, the call is abandoned.
    private func send(_ message: DBusMessage, timeout: Duration) async throws -> DBusMessage {
        let milliseconds = Int32(
            clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let waiter = PendingReply()
        defer { HandOver.receive(waiter) }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<DBusMessage, any Error>) in
                queue.async {
                    waiter.continuation = continuation
                    guard let connection = self.raw, !self.lost else {
                        return waiter.finish(
                            .failure(DBusError(name: DBusError.disconnectedName, message: "not connected to the bus")))
                    }
                    var pending: OpaquePointer?
                    let sent = dbus_connection_send_with_reply(connection, message.raw, &pending, milliseconds)
                    self.dispatchIfDisconnected(connection)
                    guard sent != 0, let pending else {
                        return waiter.finish(
                            .failure(DBusError(name: DBusError.disconnectedName, message: "not connected to the bus")))
                    }
                    waiter.pending = pending
                    let key = ObjectIdentifier(waiter)
                    self.inFlight[key] = waiter
                    waiter.finished = { [unowned self] in self.inFlight.removeValue(forKey: key) }
                    let box = Unmanaged.passRetained(waiter).toOpaque()
                    dbus_pending_call_set_notify(
                        pending,
                        { pending, data in
                            Unmanaged<PendingReply>.fromOpaque(data!).takeUnretainedValue().complete(pending!)
                        },
                        box, { data in Unmanaged<PendingReply>.fromOpaque(data!).release() })
                    // The reply may have been settled already (for example by a disconnect).
                    if dbus_pending_call_get_completed(pending) != 0 { waiter.complete(pending) }
                }
            }
        } onCancel: {
            queue.async { waiter.cancel() }
        }
    }

    // MARK: Signals

    /// Taps the hot path of a central before any subscription sees a signal: a PropertiesChanged that
    /// changes only the byte-array `property` of `interface` (a GATT notification's Value) goes to `tap`
    /// with its object path and bytes, read straight from the message, on the connection's thread.
    /// When `tap` returns true the signal goes no further; else it is decoded and routed as usual.
    /// One tap per connection; it must be quick and must not block.
    public func tapByteProperty(
        interface: String, property: String, _ tap: @escaping @Sendable (_ path: String, _ bytes: [UInt8]) -> Bool
    ) {
        queue.sync { byteTap = ByteTap(interface: interface, property: property, handler: tap) }
    }

    struct ByteTap {
        let interface: String
        let property: String
        let handler: @Sendable (String, [UInt8]) -> Bool
    }

    private struct Subscription {
        var rule: DBusMatchRule
        var continuation: AsyncStream<DBusSignal>.Continuation
    }

    /// Signals matching `rule`, from now until the stream is dropped or the bus is lost.
    public func signals(matching rule: DBusMatchRule) -> AsyncStream<DBusSignal> {
        let (stream, continuation) = AsyncStream<DBusSignal>.makeStream()
        queue.sync {
            guard let connection = raw, !lost else { return continuation.finish() }
            let id = nextSubscriptionID
            nextSubscriptionID += 1
            subscriptions[id] = Subscription(rule: rule, continuation: continuation)
            // A NULL error makes AddMatch asynchronous, so the queue never blocks on the bus.
            dbus_bus_add_match(connection, rule.text, nil)
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                self.queue.async { self.unsubscribe(id) }
            }
        }
        return stream
    }

    private func unsubscribe(_ id: UInt64) {
        assertConfined(to: queue)
        guard let subscription = subscriptions.removeValue(forKey: id), let connection = raw, !lost else { return }
        dbus_bus_remove_match(connection, subscription.rule.text, nil)
    }

    /// Emits a signal from `path`.
    public func emitSignal(path: String, interface: String, member: String, arguments: [DBusValue]) throws {
        let message = try DBusMessage.signal(path: path, interface: interface, member: member)
        try message.append(arguments)
        enqueue(message)
    }

    /// Sends a message without waiting for any reply.
    func enqueue(_ message: DBusMessage) {
        queue.async {
            guard let connection = self.raw, !self.lost else { return }
            dbus_connection_send(connection, message.raw, nil)
            self.dispatchIfDisconnected(connection)
        }
    }

    /// A write that finds the bus gone disconnects the connection there and then, and removes its
    /// watches, without telling the main loop that a Disconnected message now waits: dispatch it, or
    /// nothing would ever notice (and calls in flight would wait forever).
    private func dispatchIfDisconnected(_ connection: OpaquePointer) {
        assertConfined(to: queue)
        if dbus_connection_get_is_connected(connection) == 0 { mainLoop?.scheduleDispatch() }
    }

    // MARK: Incoming messages

    /// Runs on `queue` for every incoming message that is not a reply to a pending call.
    fileprivate func filter(_ rawMessage: OpaquePointer) -> DBusHandlerResult {
        assertConfined(to: queue)
        let message = DBusMessage(retaining: rawMessage)
        if message.isSignal {
            if message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
                logger.warning("lost the D-Bus connection")
                markLost()
                return DBUS_HANDLER_RESULT_HANDLED
            }
            if let tap = byteTap, let path = message.path,
                let bytes = message.changedByteProperty(interface: tap.interface, property: tap.property),
                tap.handler(path, bytes)
            {
                return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
            }
            guard !subscriptions.isEmpty else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let signal = DBusSignal(
                sender: message.sender ?? "", path: message.path ?? "", interface: message.interface ?? "",
                member: message.member ?? "", arguments: message.arguments())
            for (_, subscription) in subscriptions where subscription.rule.matches(signal) {
                subscription.continuation.yield(signal)
            }
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        if message.isMethodCall {
            return handleMethodCall(message) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
        return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
    }

    private static func error(from error: CDBus.DBusError, fallback: String) -> DBusError {
        guard dbus_error_is_set(withUnsafePointer(to: error) { $0 }) != 0 else {
            return DBusError(name: DBusError.failedName, message: fallback)
        }
        return DBusError(
            name: error.name.map { String(cString: $0) } ?? DBusError.failedName,
            message: error.message.map { String(cString: $0) } ?? fallback)
    }
}

/// One function pointer for both adding and removing the filter (libdbus matches it on removal).
private let incomingMessageFilter: DBusHandleMessageFunction = { _, message, data in
    Unmanaged<DBusConnection>.fromOpaque(data!).takeUnretainedValue().filter(message!)
}

/// The waiter of one method call; touched only on the connection's queue.
private final class PendingReply: @unchecked Sendable {
    var continuation: CheckedContinuation<DBusMessage, any Error>?
    var pending: OpaquePointer?

    func complete(_ pending: OpaquePointer) {
        guard let reply = dbus_pending_call_steal_reply(pending) else { return }
        finish(.success(DBusMessage(owning: reply)))
    }

    func cancel() { abandon(CancellationError()) }

    /// Gives up on the reply: libdbus will not call back, the caller gets `error`.
    func abandon(_ error: any Error) {
        if let pending { dbus_pending_call_cancel(pending) }
        finish(.failure(error))
    }

    /// Told when the waiter is done, so the connection stops tracking it.
    var finished: (() -> Void)?

    func finish(_ result: Result<DBusMessage, any Error>) {
        guard let continuation else { return }
        self.continuation = nil
        if let pending {
            self.pending = nil
            dbus_pending_call_unref(pending)
        }
        finished?()
        finished = nil
        HandOver.publish(self)
        continuation.resume(with: result)
    }
}
