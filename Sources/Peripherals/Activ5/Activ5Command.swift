/// A host→device operation of the bridge (activ5.md §4.1, §5, §6), with its characteristic and exact bytes.
///
/// Legacy commands are ASCII written to 5A02 as `'A'` + text + 0x19 (the terminator three of four clients
/// send). New-protocol streams are switched by the CCCD (`subscribe`/`unsubscribe`); on BlueZ those become
/// StartNotify/StopNotify, and `encoded()` gives the CCCD value for stacks that write 2902 themselves.
public enum Activ5Command: Sendable, Equatable {
    /// `TVGTIME`, the reply to `TC5k`; no time payload (iOS, Web, Android 2019-10).
    case handshakeReply
    /// `ISOM!`, start legacy isometric streaming on 5A01.
    case startIsometric
    /// `STOP!`, stop streaming and enter stop mode.
    case stop
    /// `TARE!`, zero the force reading; the user must not press meanwhile.
    case tare
    /// The evergreen keep-alive: `STOP!` again, every 60 s while not streaming (iOS, Web). iOS sends it on
    /// new-protocol devices as well, so it is valid for both protocols.
    case keepAlive
    /// `SN1!` / `SN2!`, ask for a half of the serial number (legacy; new devices have 2A25).
    case requestSerialNumber(Activ5IdentifierHalf)
    /// `ID1!` / `ID2!`, ask for a half of the device ID (legacy; new devices have F0F7/F0F8).
    case requestDeviceID(Activ5IdentifierHalf)
    /// `D<ddMMyyyy>/D`, OLIVER's date message (older firmware only).
    case setDate(Activ5DateTime)
    /// `T<HHmmss>/T`, OLIVER's time message (older firmware only).
    case setTime(Activ5DateTime)
    /// Enable notifications on a characteristic (CCCD `01 00`).
    case subscribe(String)
    /// Disable notifications on a characteristic (CCCD `00 00`).
    case unsubscribe(String)
    /// Write the sample period to F0FA.
    case setSamplePeriod(Activ5SamplePeriod)

    /// CCCD value that enables notifications (not indications), as Android and OLIVER write it.
    public static let enableNotificationValue: [UInt8] = [0x01, 0x00]
    /// CCCD value that disables notifications.
    public static let disableNotificationValue: [UInt8] = [0x00, 0x00]

    /// Starts the force stream: `ISOM!` on legacy devices, a subscription to F0FE on new ones (iOS does not
    /// write `ISOM!` there).
    public static func startForce(_ wireProtocol: Activ5Protocol) -> Activ5Command {
        wireProtocol == .legacy ? .startIsometric : .subscribe(Activ5GATT.Characteristic.force)
    }

    /// Stops the force stream: `STOP!` on legacy devices, unsubscribing from F0FE on new ones.
    public static func stopForce(_ wireProtocol: Activ5Protocol) -> Activ5Command {
        wireProtocol == .legacy ? .stop : .unsubscribe(Activ5GATT.Characteristic.force)
    }

    /// Starts the IMU stream (new protocol only; legacy devices have no IMU).
    public static let startIMU = Activ5Command.subscribe(Activ5GATT.Characteristic.imu)
    /// Stops the IMU stream.
    public static let stopIMU = Activ5Command.unsubscribe(Activ5GATT.Characteristic.imu)

    /// The device-side tare for a protocol: `TARE!` on legacy devices. Nil on new devices: no F0xx tare
    /// exists and whether `TARE!` on 5A02 shifts F0FE values is unknown, so the bridge tares in software
    /// with `ForceTare`.
    public static func tare(_ wireProtocol: Activ5Protocol) -> Activ5Command? {
        wireProtocol == .legacy ? .tare : nil
    }

    /// The ASCII text of a legacy command, without marker and terminator; nil for GATT-level operations.
    public var legacyText: String? {
        switch self {
        case .handshakeReply: "TVGTIME"
        case .startIsometric: "ISOM!"
        case .stop, .keepAlive: "STOP!"
        case .tare: "TARE!"
        case .requestSerialNumber(let half): "SN\(half.rawValue)!"
        case .requestDeviceID(let half): "ID\(half.rawValue)!"
        case .setDate(let dateTime): "D\(dateTime.dateDigits)/D"
        case .setTime(let dateTime): "T\(dateTime.timeDigits)/T"
        case .subscribe, .unsubscribe, .setSamplePeriod: nil
        }
    }

    /// The characteristic the operation acts on (full, lower-case).
    public var characteristicUUID: String {
        switch self {
        case .subscribe(let uuid), .unsubscribe(let uuid): BluetoothUUID.normalized(uuid)
        case .setSamplePeriod: Activ5GATT.Characteristic.samplePeriod
        default: Activ5GATT.Characteristic.legacyCommands
        }
    }

    /// The descriptor written instead of the characteristic value: the CCCD for (un)subscribing, else nil.
    public var descriptorUUID: String? {
        switch self {
        case .subscribe, .unsubscribe: Activ5GATT.Characteristic.clientConfiguration
        default: nil
        }
    }

    /// The bytes written, e.g. `41 54 56 47 54 49 4D 45 19` for `TVGTIME`.
    public func encoded() -> [UInt8] {
        switch self {
        case .subscribe: Self.enableNotificationValue
        case .unsubscribe: Self.disableNotificationValue
        case .setSamplePeriod(let period): period.encoded()
        default: Activ5LegacyFraming.command(legacyText ?? "")
        }
    }
}
