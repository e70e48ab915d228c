/// Power supply state reported in byte 0 of the battery status (belt.md §4.4).
public enum BeltPowerStatus: UInt8, BeltNamedValue {
    /// Not known.
    case unknown = 0
    /// Running on battery.
    case battery = 1
    /// Charging.
    case charging = 2
    /// External power, battery full.
    case external = 3

    /// Lower-case name.
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .battery: "battery"
        case .charging: "charging"
        case .external: "external"
        }
    }
}
