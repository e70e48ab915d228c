/// When the belt plays its own "orientation inaccurate" signal (advanced parameter 0x03, belt.md §3.1).
public struct AccuracySignalState: OptionSet, Sendable, Hashable {
    /// The wire byte.
    public let rawValue: UInt8
    /// Creates a state from the wire byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: signal in compass mode.
    public static let compassMode = AccuracySignalState(rawValue: 1 << 0)
    /// Bit 1: signal in app mode (it takes over channel 0).
    public static let appMode = AccuracySignalState(rawValue: 1 << 1)
    /// Factory default, both on (3).
    public static let `default`: AccuracySignalState = [.compassMode, .appMode]
}
