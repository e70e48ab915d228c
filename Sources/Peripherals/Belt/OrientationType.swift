/// How the orientation value of a vibration command is to be read (belt.md §3.2.1).
public enum OrientationType: UInt8, BeltNamedValue {
    /// Bit *i* selects motor *i*.
    case binaryMask = 0
    /// One motor, 0 = front, clockwise, 0–15.
    case motorIndex = 1
    /// Degrees relative to the belt front, 0–359.
    case angle = 2
    /// Degrees relative to magnetic North, 0–359.
    case bearing = 3

    /// Lower-case name.
    public var name: String {
        switch self {
        case .binaryMask: "binary_mask"
        case .motorIndex: "motor_index"
        case .angle: "angle"
        case .bearing: "bearing"
        }
    }
}
