/// Normalises an orientation value the way all three vendor clients do (belt.md §3.2.1): angles and
/// bearings mod 360 with negatives wrapped, motor indices mod 16, masks checked for at most six motors.
func normalizedOrientationValue(_ value: Int, type: OrientationType) throws(FieldError) -> UInt16 {
    switch type {
    case .angle, .bearing:
        return UInt16(((value % 360) + 360) % 360)
    case .motorIndex:
        return UInt16(((value % 16) + 16) % 16)
    case .binaryMask:
        try FieldError.check(value, in: 0...0xFFFF, field: "orientationValue")
        // Android refuses more than six motors at once.
        guard value.nonzeroBitCount <= 6 else {
            throw FieldError(
                field: "orientationValue", message: "mask has \(value.nonzeroBitCount) motors, at most 6 allowed")
        }
        return UInt16(value)
    }
}
