/// One step of the bridge's connection handshake.
public enum BeltHandshakeStep: Sendable, Equatable {
    /// Enable notifications on a characteristic (StartNotify).
    case subscribe(String)
    /// Write a command to FE05 and wait for an FE06 notification starting with `expectPrefix`.
    case request(BeltCommand, expectPrefix: [UInt8])
    /// Read the firmware version from FE01.
    case readFirmware
    /// Read the battery status from FE09, so the battery is known at once rather than at the belt's
    /// next change (iOS reads it right after the firmware). Optional: a failed read is not fatal.
    case readBattery

    /// The characteristic the step acts on.
    public var characteristicUUID: String {
        switch self {
        case .subscribe(let uuid): uuid
        case .request(let command, _): command.characteristicUUID
        case .readFirmware: BeltGATT.Characteristic.firmwareInfo
        case .readBattery: BeltGATT.Characteristic.batteryStatus
        }
    }

    /// Whether a value from the belt completes this step. Subscriptions complete through BlueZ, not here.
    public func isAnswered(by notification: BeltNotification) -> Bool {
        switch (self, notification) {
        case (.request(_, let prefix), .parameter(let value)): value.encoded().starts(with: prefix)
        case (.readFirmware, .firmware): true
        case (.readBattery, .battery): true
        default: false
        }
    }
}

/// The bridge's handshake as data: belt.md §2.5, "[INFERRED] minimal common handshake".
public enum BeltHandshake: Sendable {
    /// How long to wait for each answer, as pybelt does.
    public static let answerTimeoutSeconds = 1.0

    /// The ordered steps. FE02 and FE06 come first so no reply is missed; FE0C comes last because
    /// orientation packets are only wanted once the belt is known.
    public static let steps: [BeltHandshakeStep] = [
        .subscribe(BeltGATT.Characteristic.keepAlive),
        .subscribe(BeltGATT.Characteristic.parameterNotification),
        .subscribe(BeltGATT.Characteristic.buttonPress),
        .subscribe(BeltGATT.Characteristic.batteryStatus),
        .request(.requestMode, expectPrefix: [0x01, 0x01]),
        .request(.requestDefaultIntensity, expectPrefix: [0x01, 0x02]),
        .readFirmware,
        .readBattery,
        .request(.requestHeadingOffset, expectPrefix: [0x01, 0x03]),
        .request(.requestAdvancedParameter(.accuracySignal), expectPrefix: [0x10, 0x03]),
        .subscribe(BeltGATT.Characteristic.orientation),
    ]
}

/// What the bridge has learnt about a belt during the handshake. Complete once mode, default intensity
/// and firmware are known (Android's rule); heading offset and accuracy state are welcome but optional,
/// since iOS tolerates a failing offset request.
public struct BeltHandshakeProgress: Sendable, Equatable {
    /// Current mode.
    public private(set) var mode: BeltMode?
    /// Default intensity.
    public private(set) var defaultIntensity: UInt8?
    /// Firmware.
    public private(set) var firmware: BeltFirmwareInfo?
    /// Heading offset (optional).
    public private(set) var headingOffset: UInt16?
    /// Compass-accuracy signal state (optional).
    public private(set) var accuracySignal: AccuracySignalState?

    /// Nothing known yet.
    public init() {}

    /// Whether the required facts are known.
    public var isComplete: Bool { mode != nil && defaultIntensity != nil && firmware != nil }

    /// Names of the required facts still missing, for error messages.
    public var missing: [String] {
        [("mode", mode == nil), ("default intensity", defaultIntensity == nil), ("firmware", firmware == nil)]
            .filter(\.1).map(\.0)
    }

    /// Learns whatever the value tells. Keep-alives and button events carry the mode too.
    public mutating func record(_ notification: BeltNotification) {
        switch notification {
        case .keepAlive(let mode): self.mode = mode
        case .button(let event): mode = event.newMode
        case .firmware(let info): firmware = info
        case .parameter(.mode(let mode)): self.mode = mode
        case .parameter(.defaultIntensity(let intensity)), .parameter(.advancedDefaultIntensity(let intensity)):
            defaultIntensity = intensity
        case .parameter(.headingOffset(let degrees)), .parameter(.advancedHeadingOffset(let degrees)):
            headingOffset = degrees
        case .parameter(.accuracySignal(let state)): accuracySignal = state
        case .parameter, .battery, .orientation: break
        }
    }
}
