/// The belt's operating mode (belt.md §4.2). The developer-only value 9 and the library placeholder 0xFF
/// are deliberately absent: no production client sends them.
public enum BeltMode: UInt8, BeltNamedValue {
    /// Everything off, BLE included; the belt drops the link after announcing it.
    case standby = 0
    /// Idle, with a periodic "alive" vibration.
    case wait = 1
    /// Vibrates toward magnetic North.
    case compass = 2
    /// Vibration controlled by the app.
    case app = 3
    /// No vibration.
    case pause = 4
    /// Sensor calibration.
    case calibration = 5
    /// Vibrates toward the initial heading (firmware ≥ 45).
    case crossing = 6

    /// Lower-case name.
    public var name: String {
        switch self {
        case .standby: "standby"
        case .wait: "wait"
        case .compass: "compass"
        case .app: "app"
        case .pause: "pause"
        case .calibration: "calibration"
        case .crossing: "crossing"
        }
    }
}
