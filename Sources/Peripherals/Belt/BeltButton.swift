/// A button on the belt's control box (belt.md §4.2).
public enum BeltButton: UInt8, BeltNamedValue {
    /// Power button.
    case power = 1
    /// Pause button.
    case pause = 2
    /// Compass button.
    case compass = 3
    /// Home button.
    case home = 4

    /// Lower-case name.
    public var name: String {
        switch self {
        case .power: "power"
        case .pause: "pause"
        case .compass: "compass"
        case .home: "home"
        }
    }
}
