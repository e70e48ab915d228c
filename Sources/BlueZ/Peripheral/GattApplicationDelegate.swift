import DBus

/// What a `GattApplication` asks of the peripheral behind it. Flags are already enforced when these
/// run: a read arrives only for a readable characteristic, a write only for a writable one.
///
/// Throw a `DBusError` named `org.bluez.Error.*` to answer the central with that error.
public protocol GattApplicationDelegate: AnyObject, Sendable {
    /// Returns the value of a read of `characteristic` (full lower-case UUID).
    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8]
    /// Handles a write of `value` to `characteristic`; throwing refuses it.
    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws
    /// A central asks to subscribe to `characteristic` (StartNotify, or a write to the CCCD), before
    /// anything changes; throwing refuses the subscription with that error. `options.device` names the
    /// central only where the stack says: a CCCD write carries WriteValue's options, while bluetoothd
    /// 5.66 and BlueZoo call StartNotify without any. Allows everything unless implemented.
    func authorizeNotifications(for characteristic: String, options: GattRequestOptions) async throws
    /// A central subscribed to `characteristic` (BlueZ's StartNotify: the first subscriber).
    func notificationsStarted(for characteristic: String) async
    /// Nobody is subscribed to `characteristic` any more (StopNotify, or the stack went away).
    func notificationsStopped(for characteristic: String) async
    /// A write the application refused itself (the flags do not allow it), before any delegate call;
    /// for peripherals that log every write. Does nothing unless implemented.
    func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) async
}

extension GattApplicationDelegate {
    /// Allows every subscription.
    public func authorizeNotifications(for characteristic: String, options: GattRequestOptions) async throws {}

    /// Does nothing.
    public func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) async {}
}

/// The options BlueZ passes with ReadValue and WriteValue (`a{sv}`), typed.
public struct GattRequestOptions: Sendable, Equatable {
    /// Byte offset into the value.
    public var offset: UInt16
    /// `request` (with response), `command` (without) or `reliable`; nil when the central gave none.
    public var type: String?
    /// Object path of the central's Device1 on our adapter.
    public var device: String?
    /// The link's ATT MTU.
    public var mtu: UInt16?
    /// `LE` or `BR/EDR`.
    public var link: String?

    /// Creates options.
    public init(offset: UInt16 = 0, type: String? = nil, device: String? = nil, mtu: UInt16? = nil, link: String? = nil)
    {
        self.offset = offset
        self.type = type
        self.device = device
        self.mtu = mtu
        self.link = link
    }

    /// Reads the options dictionary of a method call; unknown keys are ignored.
    public init(_ value: DBusValue?) {
        let options = value?.stringKeyed ?? [:]
        self.init(
            offset: options["offset"]?.uint16 ?? 0, type: options["type"]?.string, device: options["device"]?.string,
            mtu: options["mtu"]?.uint16, link: options["link"]?.string)
    }
}
