/// A vibration signal built into the firmware, started with `20 <signal>` (belt.md §3.2.4).
public enum SystemSignal: UInt8, BeltNamedValue {
    /// Light warning at a belt-chosen intensity.
    case warning = 0
    /// Destination reached, one iteration.
    case destinationReached = 1
    /// Battery level, on channel 0 at default intensity.
    case batteryLevel = 2

    /// Lower-case name.
    public var name: String {
        switch self {
        case .warning: "warning"
        case .destinationReached: "destination_reached"
        case .batteryLevel: "battery_level"
        }
    }
}
