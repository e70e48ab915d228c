import CDBus
import WakePipe

/// Descriptors handled on the connection's own I/O thread, and file descriptors passed over the bus.
extension DBusConnection: DescriptorHost {
    /// Whether this connection can receive and send file descriptors: a Unix-socket bus can, a TCP one
    /// cannot (a reply carrying one would never arrive).
    public var canPassFileDescriptors: Bool {
        onQueue { raw.map { dbus_connection_can_send_type($0, CDBUS_TYPE_UNIX_FD) != 0 } ?? false }
    }

    /// Polls `descriptor` for reading on the connection's I/O thread, in the same wait as the bus:
    /// `handler` runs there (on the connection's queue) whenever it is readable, with `hungUp` once the
    /// other end is gone. It must read what is pending and not block. The caller keeps the descriptor
    /// and closes it after ``unwatch(_:)``.
    public func watch(_ descriptor: Int32, _ handler: @escaping @Sendable (_ hungUp: Bool) -> Void) {
        _ = host(descriptor) { readiness in
            if !readiness.isDisjoint(with: [.readable, .hungUp]) { handler(readiness.contains(.hungUp)) }
        }
    }

    /// Stops polling `descriptor`; its handler runs no more once this returns.
    public func unwatch(_ descriptor: Int32) {
        onQueue { mainLoop?.unwatchDescriptor(descriptor) }
    }

    // MARK: DescriptorHost

    public func host(_ descriptor: Int32, _ handler: @escaping @Sendable (DescriptorReadiness) -> Void)
        -> HostedDescriptor
    {
        // Without a loop (a closed connection) nothing is polled, and releasing the registration does nothing.
        onQueue { mainLoop?.watchDescriptor(descriptor, handler) }
            ?? HostedDescriptor(descriptor: descriptor, registration: .max)
    }

    public func pollForWriting(_ hosted: HostedDescriptor, _ wanted: Bool) {
        // The loop is read without the queue: a publishing thread must never wait for a D-Bus turn.
        loopForAnyThread.pollForWriting(hosted, wanted)
    }

    public func release(_ hosted: HostedDescriptor) {
        onQueue { mainLoop?.unwatch(hosted) }
    }

    /// Runs `body` on the connection's queue, inline when already there (a handler may unwatch itself).
    func onQueue<T>(_ body: () -> T) -> T {
        isOnQueue ? body() : queue.sync(execute: body)
    }
}
