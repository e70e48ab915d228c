/// The state of a simulated Activ5 and how it answers writes (activ5.md §10). Pure: the simulator owns the
/// clock, the link and the sending; it passes times in seconds on any monotonic clock.
///
/// Choices where the sources are silent, all [U] in activ5.md:
/// - `TC5k` is sent each time notifications on 5A01 are enabled; `TVGTIME` is accepted at any time and not
///   answered (no client parses an answer).
/// - `ISOM!`/`STOP!` drive the legacy `IS` stream on both profiles; F0FE and F0F5 are driven by their CCCDs
///   only, so `STOP!` (also the keep-alive) never ends a new-protocol stream.
/// - `TARE!` zeroes whatever force is applied at that moment, for both streams.
/// - Power-off after `idlePowerOffSeconds` without any host write or connection while nothing streams; reads do
///   not count. The sources say "7 minutes in stop mode", a connected device's state: the simulator starts the
///   clock at the first connection.
/// - A GAPI handshake is accepted like `TVGTIME`, but frames stay ASCII (GAPI is not implemented).
public struct Activ5State: Sendable, Equatable {
    /// Local name a simulator advertises, in the `ACTIV5-XX-NNNN` shape of real devices.
    public static let defaultLocalName = "ACTIV5-SI-0001"
    /// Length F0F8 is NUL-padded to on reads, so that clients' padding removal is exercised.
    public static let deviceIDFieldLength = 16

    /// Which profile is simulated.
    public var wireProtocol: Activ5Protocol
    /// Contents of `TC5k`.
    public var status: Activ5DeviceStatus
    /// Whether `TC5k` is sent at all: no client shows that every legacy device sends it (activ5.md §4.5),
    /// and a host must still work with one that does not.
    public var sendsInitialMessage = true
    /// Serial number (2A25; halves for `SN1!`/`SN2!`).
    public var serialNumber: String
    /// First half of the device ID (F0F7, `ID1!`).
    public var deviceIDPart1: String
    /// Second half of the device ID (F0F8, `ID2!`).
    public var deviceIDPart2: String
    /// Battery level in percent (2A19).
    public var batteryLevel: UInt8
    /// Force the simulated user applies, in newtons, before tare.
    public var appliedNewtons = 0.0
    /// Acceleration the IMU reports, in g; lying still by default.
    public var acceleration = Activ5Vector3(x: 0, y: 0, z: 1)
    /// Angular velocity the IMU reports, in rad/s.
    public var angularVelocity = Activ5Vector3.zero
    /// Seconds without a host write, while nothing streams, before the device switches off.
    public var idlePowerOffSeconds: Double

    /// Force subtracted from `appliedNewtons`, set by `TARE!`.
    public private(set) var tareOffsetNewtons = 0.0
    /// F0FA sample period in milliseconds, for the F0FE stream.
    public private(set) var samplePeriodMilliseconds: Int16 = Activ5Timing.defaultSamplePeriodMilliseconds
    /// Whether `ISOM!` was received and no `STOP!` since.
    public private(set) var isLegacyStreaming = false
    /// Characteristics with notifications enabled (full, lower-case UUIDs).
    public private(set) var subscriptions: Set<String> = []
    /// Whether `TVGTIME` (or its GAPI form) was received.
    public private(set) var handshakeReceived = false
    /// Time of the last host write.
    public private(set) var lastActivity: Double
    /// Digits of the last `D…/D` message, if any.
    public private(set) var lastDateDigits: String?
    /// Digits of the last `T…/T` message, if any.
    public private(set) var lastTimeDigits: String?

    /// Creates a device that was connected at `connectedAt`.
    public init(
        wireProtocol: Activ5Protocol, status: Activ5DeviceStatus = Activ5DeviceStatus(firmwareVersion: "1.00"),
        serialNumber: String = "A5SIM0000001", deviceIDPart1: String = "5F3C2A10", deviceIDPart2: String = "9B7E",
        batteryLevel: UInt8 = 87, idlePowerOffSeconds: Double = Activ5Timing.idlePowerOffSeconds,
        connectedAt: Double = 0
    ) {
        self.wireProtocol = wireProtocol
        self.status = status
        self.serialNumber = serialNumber
        self.deviceIDPart1 = deviceIDPart1
        self.deviceIDPart2 = deviceIDPart2
        self.batteryLevel = batteryLevel
        self.idlePowerOffSeconds = idlePowerOffSeconds
        lastActivity = connectedAt
    }

    /// Force after tare, in newtons.
    public var netNewtons: Double { appliedNewtons - tareOffsetNewtons }

    /// Whether any stream runs; the device is in "stop mode" otherwise. F0FE/F0F5 count only on the new
    /// profile, the only one that exports them.
    public var isStreaming: Bool {
        let newStreams = isNotifying(Activ5GATT.Characteristic.force) || isNotifying(Activ5GATT.Characteristic.imu)
        return isLegacyStreaming || (wireProtocol == .new && newStreams)
    }

    /// A host connected at `time`: connecting is the host's doing, and the idle clock starts again from it.
    public mutating func hostConnected(at time: Double) { lastActivity = time }

    /// Whether the device has switched itself off by `time`: 7 minutes (by default) in stop mode since the
    /// last host write. This is what the evergreen keep-alive prevents.
    public func isPoweredOff(at time: Double) -> Bool {
        !isStreaming && time - lastActivity >= idlePowerOffSeconds
    }

    /// Seconds between F0FE notifications, from the F0FA period.
    public var forcePeriodSeconds: Double { Double(samplePeriodMilliseconds) / 1000 }

    /// Applies a host write at `time` and returns what the device notifies in reply, in order.
    public mutating func apply(_ request: Activ5Request, at time: Double) -> [Activ5Notification] {
        lastActivity = time
        switch request {
        case .subscribe(let uuid):
            let characteristic = BluetoothUUID.normalized(uuid)
            subscriptions.insert(characteristic)
            return characteristic == Activ5GATT.Characteristic.legacyMessages && sendsInitialMessage
                ? [.legacy(.initial(status))] : []
        case .unsubscribe(let uuid):
            subscriptions.remove(BluetoothUUID.normalized(uuid))
            return []
        case .handshakeReply, .gapiHandshake:
            handshakeReceived = true
            return []
        case .startIsometric:
            isLegacyStreaming = true
            return []
        case .stop:
            isLegacyStreaming = false
            return []
        case .tare:
            tareOffsetNewtons = appliedNewtons
            return []
        case .requestSerialNumber(let half):
            return [.legacy(.serialNumberPart(half, Self.half(half, of: serialNumber)))]
        case .requestDeviceID(let half):
            return [.legacy(.deviceIDPart(half, half == .first ? deviceIDPart1 : deviceIDPart2))]
        case .setDate(let digits):
            lastDateDigits = digits
            return []
        case .setTime(let digits):
            lastTimeDigits = digits
            return []
        case .heartRate:
            return []
        case .setSamplePeriod(let milliseconds):
            samplePeriodMilliseconds = milliseconds
            return []
        }
    }

    /// The `IS` frame due every 100 ms while `ISOM!` streaming runs and 5A01 is subscribed, else nil.
    public func legacyForceNotification() -> Activ5Notification? {
        guard isLegacyStreaming, isNotifying(Activ5GATT.Characteristic.legacyMessages) else { return nil }
        return .legacy(.isometric(raw: Activ5ForceScale.legacyRaw(newtons: netNewtons)))
    }

    /// The F0FE value due every `forcePeriodSeconds` while F0FE is subscribed (new profile), else nil.
    public func forceNotification() -> Activ5Notification? {
        guard wireProtocol == .new, isNotifying(Activ5GATT.Characteristic.force) else { return nil }
        return .force(raw: Activ5ForceScale.newRaw(newtons: netNewtons))
    }

    /// The F0F5 sample due every 40 ms while F0F5 is subscribed (new profile), stamped with `time`.
    public func imuNotification(at time: Double) -> Activ5Notification? {
        guard wireProtocol == .new, isNotifying(Activ5GATT.Characteristic.imu) else { return nil }
        return .imu(
            Activ5IMUSample(acceleration: acceleration, angularVelocity: angularVelocity, timestampSeconds: time))
    }

    /// The value a read of `characteristic` returns at `time`, or nil if the profile has no readable
    /// characteristic of that UUID. F0F8 is NUL-padded; F0F3 (format unknown) returns the IMU tick counter
    /// as int32 LE, a guess no client can contradict since none reads it.
    public func readValue(characteristic: String, at time: Double) -> [UInt8]? {
        guard wireProtocol == .new else { return nil }
        switch BluetoothUUID.normalized(characteristic) {
        case Activ5GATT.Characteristic.batteryLevel: return Activ5Notification.batteryLevel(batteryLevel).encoded()
        case Activ5GATT.Characteristic.serialNumber: return Activ5Notification.serialNumber(serialNumber).encoded()
        case Activ5GATT.Characteristic.deviceIDPart1:
            return Activ5Notification.deviceIDPart(.first, deviceIDPart1).encoded()
        case Activ5GATT.Characteristic.deviceIDPart2:
            let text = Activ5Notification.deviceIDPart(.second, deviceIDPart2).encoded()
            return text + [UInt8](repeating: 0, count: max(0, Self.deviceIDFieldLength - text.count))
        case Activ5GATT.Characteristic.timestamp:
            return Activ5IMUSample(acceleration: .zero, angularVelocity: .zero, timestampSeconds: time).rawTimestamp
                .littleEndianBytes
        default: return nil
        }
    }

    private func isNotifying(_ uuid: String) -> Bool { subscriptions.contains(uuid) }

    /// The first (longer, for odd lengths) or second half of `text`.
    private static func half(_ half: Activ5IdentifierHalf, of text: String) -> String {
        let split = (text.count + 1) / 2
        return half == .first ? String(text.prefix(split)) : String(text.dropFirst(split))
    }
}
