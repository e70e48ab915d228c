/// A vibration pattern of a channel configuration (belt.md §3.2.1, Android names).
public enum VibrationPattern: UInt8, BeltNamedValue {
    /// No vibration.
    case noVibration = 0
    /// Continuous.
    case continuous = 1
    /// One short pulse.
    case singleShort = 2
    /// One long pulse.
    case singleLong = 3
    /// Two short pulses.
    case doubleShort = 4
    /// Two long pulses.
    case doubleLong = 5
    /// Warning wave †.
    case warning = 6
    /// Circle to the right †.
    case circularRight = 7
    /// Fading out.
    case fadeOut = 8
    /// Destination reached †.
    case destinationReached = 9
    /// Front cross †.
    case frontCross = 10
    /// Battery level 0 †.
    case batteryLevel0 = 11
    /// Battery level 1 †.
    case batteryLevel1 = 12
    /// Battery level 2 †.
    case batteryLevel2 = 13
    /// Battery level 3 †.
    case batteryLevel3 = 14
    /// Battery level 4 †.
    case batteryLevel4 = 15
    /// Battery level 5 †.
    case batteryLevel5 = 16
    /// Battery level 6 †.
    case batteryLevel6 = 17
    /// Battery level 7 †.
    case batteryLevel7 = 18
    /// Battery level 8 †.
    case batteryLevel8 = 19
    /// Battery level 9 †.
    case batteryLevel9 = 20
    /// Battery level 10 †.
    case batteryLevel10 = 21
    /// Battery level 11 †.
    case batteryLevel11 = 22
    /// Battery level 12 †.
    case batteryLevel12 = 23
    /// Battery level 13 †.
    case batteryLevel13 = 24
    /// Unnamed; pybelt's range check allows it.
    case pattern25 = 25
    /// Unnamed; pybelt's range check allows it.
    case pattern26 = 26

    /// Whether the pattern is built on a fixed motor mask (marked † in belt.md), so it must not be
    /// combined with a binary-mask orientation. 25 and 26 are unknown and treated as plain patterns.
    public var isMaskBased: Bool {
        switch self {
        case .warning, .circularRight, .destinationReached, .frontCross: true
        default: (VibrationPattern.batteryLevel0.rawValue...VibrationPattern.batteryLevel13.rawValue).contains(rawValue)
        }
    }

    /// Lower-case name, e.g. `"single_short"` or `"battery_level_3"`.
    public var name: String {
        switch self {
        case .noVibration: "no_vibration"
        case .continuous: "continuous"
        case .singleShort: "single_short"
        case .singleLong: "single_long"
        case .doubleShort: "double_short"
        case .doubleLong: "double_long"
        case .warning: "warning"
        case .circularRight: "circular_right"
        case .fadeOut: "fade_out"
        case .destinationReached: "destination_reached"
        case .frontCross: "front_cross"
        case .pattern25: "pattern_25"
        case .pattern26: "pattern_26"
        default: "battery_level_\(rawValue - VibrationPattern.batteryLevel0.rawValue)"
        }
    }
}
