/// What a hosted descriptor is ready for, or `tick`: about once a second, for a client's timers.
public struct DescriptorReadiness: OptionSet, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let readable = DescriptorReadiness(rawValue: 1 << 0)
    public static let writable = DescriptorReadiness(rawValue: 1 << 1)
    /// The other end is gone, or the descriptor failed.
    public static let hungUp = DescriptorReadiness(rawValue: 1 << 2)
    public static let tick = DescriptorReadiness(rawValue: 1 << 3)
}

/// Which registration a `release` ends: a descriptor's number may be reused once it is closed.
public struct HostedDescriptor: Sendable, Equatable {
    public let descriptor: Int32
    public let registration: UInt64

    public init(descriptor: Int32, registration: UInt64) {
        self.descriptor = descriptor
        self.registration = registration
    }
}

/// An I/O thread that polls other clients' descriptors beside its own, so that a client with one socket
/// (the MQTT client riding on the D-Bus connection's thread) wakes no thread of its own.
public protocol DescriptorHost: AnyObject, Sendable {
    /// From the next poll on, `handler` runs on the host's thread whenever `descriptor` is readable
    /// (or writable, while asked for with ``pollForWriting(_:_:)``), and with `.tick` about once a second.
    /// It must not block.
    func host(_ descriptor: Int32, _ handler: @escaping @Sendable (DescriptorReadiness) -> Void) -> HostedDescriptor
    /// Polls for writing too, or no longer. From any thread.
    func pollForWriting(_ hosted: HostedDescriptor, _ wanted: Bool)
    /// Ends the registration, unless it already ended; once this returns its handler runs no more. From
    /// any thread, the handler's own included.
    func release(_ hosted: HostedDescriptor)
}
