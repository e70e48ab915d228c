/// Whether the sensor touches the skin, from bits 1–2 of a measurement's flags.
///
/// Bit 2 says whether the sensor can tell at all; bit 1 means something only when bit 2 is set. A strap without
/// the feature sends both clear (or bit 1 alone, which means the same), and that is "cannot tell", not "no
/// contact": the three cases keep a strap without the feature from being reported as off the skin.
public enum HeartRateSensorContact: Sendable, Equatable, Hashable {
    /// The sensor cannot detect contact (bit 2 clear, whatever bit 1 says).
    case notSupported
    /// The sensor can detect contact and has none (bits 2–1 = `10`).
    case notDetected
    /// The sensor can detect contact and has it (bits 2–1 = `11`).
    case detected

    /// Reads bits 1–2 of a measurement's flags byte; the other bits are ignored.
    init(flags: UInt8) {
        switch (flags >> 1) & 0b11 {
        case 0b11: self = .detected
        case 0b10: self = .notDetected
        default: self = .notSupported
        }
    }
}
