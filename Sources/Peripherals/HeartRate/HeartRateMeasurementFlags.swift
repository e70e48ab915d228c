/// The flags byte that opens every Heart Rate Measurement (2A37) and says which fields follow it, in this order:
/// the heart rate (bit 0: uint8 when clear, uint16 little-endian when set), the energy expended (bit 3: a uint16
/// in kilojoules) and one or more RR intervals (bit 4: uint16 values in 1/1024 s). Bits 1–2 are the sensor
/// contact status (`HeartRateSensorContact`).
///
/// Decision: bits 5–7 are reserved for future use, and the specifications' rule for reserved bits is that a
/// receiver ignores them. They are tolerated and ignored here: a later revision that gives them a meaning can only
/// add fields after the ones we read, and the length checks still catch a value we do not understand.
struct HeartRateMeasurementFlags: Sendable, Equatable {
    /// The byte as received, reserved bits included.
    let rawValue: UInt8

    /// Whether the heart rate is a uint16 (two bytes) rather than a uint8.
    var hasUInt16HeartRate: Bool { rawValue & 0x01 != 0 }
    /// Whether an energy expended field follows the heart rate.
    var hasEnergyExpended: Bool { rawValue & 0x08 != 0 }
    /// Whether RR intervals end the value.
    var hasRRIntervals: Bool { rawValue & 0x10 != 0 }
    /// The sensor contact status of bits 1–2.
    var contact: HeartRateSensorContact { HeartRateSensorContact(flags: rawValue) }

    /// The bytes of the flags and of the fields before the RR intervals.
    var fixedFieldsByteCount: Int { 1 + (hasUInt16HeartRate ? 2 : 1) + (hasEnergyExpended ? 2 : 0) }

    /// The shortest value these flags allow: the fixed fields and, when bit 4 promises "one or more" RR
    /// intervals, one of them.
    var minimumByteCount: Int { fixedFieldsByteCount + (hasRRIntervals ? 2 : 0) }
}
