/// One Heart Rate Measurement notification (2A37), decoded; see `init(bytes:)` for the wire format.
///
/// Decision: a heart rate of 0 is a valid value. The specification gives the field no range and no special
/// "unknown" value, so 0 is reported as it came, and the caller can weigh it against `contact`.
public struct HeartRateMeasurement: Sendable, Equatable, Hashable {
    /// RR intervals count in 1/1024 s.
    public static let rrIntervalUnitsPerSecond = 1024.0
    /// The longest attribute value the Core specification allows; anything longer is refused before decoding,
    /// which also bounds the RR intervals of one measurement to 255.
    public static let maximumByteCount = 512

    /// Heart rate in beats per minute, 0–65535 (0–255 when the sensor sent a uint8).
    public let beatsPerMinute: Int
    /// Whether the sensor touches the skin, or cannot tell.
    public let contact: HeartRateSensorContact
    /// Energy expended since the last reset, in kilojoules; nil when this notification does not carry it.
    public let energyExpendedKilojoules: Int?
    /// The RR intervals (time between two heart beats) as sent, in 1/1024 s, oldest first; empty when absent.
    public let rawRRIntervals: [UInt16]

    /// The RR intervals in seconds, oldest first (1024 → 1.0).
    public var rrIntervalSeconds: [Double] { rawRRIntervals.map { Double($0) / Self.rrIntervalUnitsPerSecond } }

    /// Creates a measurement.
    public init(
        beatsPerMinute: Int, contact: HeartRateSensorContact = .notSupported, energyExpendedKilojoules: Int? = nil,
        rawRRIntervals: [UInt16] = []
    ) {
        self.beatsPerMinute = beatsPerMinute
        self.contact = contact
        self.energyExpendedKilojoules = energyExpendedKilojoules
        self.rawRRIntervals = rawRRIntervals
    }
}
