/// The band's mode. The band never reports it over the air (cpr-band-and-grip.md §A.4): the bridge
/// derives it from its own acknowledged writes, as the Bus library does, and the simulator keeps it in
/// `CPRBandState`. Raw values are the names to publish.
public enum CPRBandMode: String, Sendable, CaseIterable, Codable {
    /// Connected, but no mode write acknowledged yet (Bus status `connected`). Ready-only commands are
    /// refused until `F1` is acknowledged.
    case unknown
    /// Ready (Bus `ready`): settings may change, the band may be called, nothing streams.
    case ready
    /// Practice mode (Bus `practicing`): the band streams depth and angle.
    case practicing
    /// Evaluation mode (Bus `evaluating`): the band streams depth and angle with its LEDs off.
    case evaluating
    /// Switched off after an acknowledged `F7` or `FF`; the link goes down.
    case off

    /// Whether the band streams depth and angle notifications in this mode.
    public var isStreaming: Bool { self == .practicing || self == .evaluating }
}
