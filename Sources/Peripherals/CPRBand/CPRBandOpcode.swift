/// The command bytes of the Bus library's `CMD` enum (cpr-band-and-grip.md §A.5.1), written one byte
/// per write to FFF4 with response. Case names follow the vendor library.
public enum CPRBandOpcode: UInt8, Sendable, CaseIterable {
    /// `F1`: ready mode, the default; ends streaming. Bus also writes it on its own after connecting.
    case ready = 0xF1
    /// `F2`: "call" the band, all LEDs on and the buzzer rings. Ready mode only.
    case call = 0xF2
    /// `F3`: practice mode; LEDs follow the movement and the band streams depth and angle.
    case practice = 0xF3
    /// `F4`: evaluation mode; LEDs off, the band still streams depth and angle.
    case evaluationStart = 0xF4
    /// `F5`: new correct-depth range; the next two writes are min and max in mm. Ready mode only.
    case newRange = 0xF5
    /// `F6`: new band name; the next 18 writes are the space-padded name. Ready mode only.
    case newName = 0xF6
    /// `F7`: reset name and range to factory values; the firmware then switches the band off. Ready mode only.
    case reset = 0xF7
    /// `FF`: switch the band off. Ready mode only.
    case powerOff = 0xFF

    /// The vendor rule "only sent if the band is in ready mode" (README, marked commands). It is a rule
    /// of the app library; what the firmware does with these bytes in other modes is unknown.
    public var requiresReadyMode: Bool {
        switch self {
        case .ready, .practice, .evaluationStart: false
        case .call, .newRange, .newName, .reset, .powerOff: true
        }
    }

    /// How many one-byte argument writes follow the opcode: 2 for `newRange`, 18 for `newName`, else 0.
    public var argumentCount: Int {
        switch self {
        case .newRange: 2
        case .newName: CPRBandName.paddedLength
        default: 0
        }
    }

    /// Whether the band switches itself off once the write is acknowledged (`F7` and `FF`); Bus then
    /// tears the connection down.
    public var switchesBandOff: Bool { self == .reset || self == .powerOff }
}

/// Extra command bytes seen only in Credo's factory and manikin tools (§A.5.2). Whether a band reacts
/// to any of them is unknown. The bridge never sends them; the simulator accepts and records them.
public enum CPRBandFactoryOpcode: UInt8, Sendable, CaseIterable {
    /// `B0`, CALIBRATION.
    case calibration = 0xB0
    /// `BA`, CALIBRATION_MAGNET.
    case calibrationMagnet = 0xBA
    /// `C0`, MAGNET.
    case magnet = 0xC0
    /// `DD`, BLE_TEST: the inspection tool then counts a stream of FFF1 notifications.
    case bleTest = 0xDD
}
