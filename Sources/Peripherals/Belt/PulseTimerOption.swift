/// What a pulse command does with a channel's running timer (belt.md §3.2.2, §7).
public enum PulseTimerOption: UInt8, BeltNamedValue {
    /// Restart the timer.
    case reset = 0
    /// Restart only if the period differs (Android's convenience default).
    case resetIfPeriodDiffers = 1
    /// Keep the timer running.
    case keep = 2

    /// Lower-case name.
    public var name: String {
        switch self {
        case .reset: "reset"
        case .resetIfPeriodDiffers: "reset_if_period_differs"
        case .keep: "keep"
        }
    }
}
