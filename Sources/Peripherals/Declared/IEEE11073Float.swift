/// IEEE 11073-20601's decimal floats, the number formats of the SIG's medical and fitness profiles (a weight, a
/// temperature, a blood pressure): a signed mantissa times ten to a signed exponent, with five reserved mantissas
/// for what is not a number. Those are recognised by the mantissa alone, whatever the exponent, as the SIG's own
/// libraries do.
public enum IEEE11073Float {
    public enum Decoded: Sendable, Equatable {
        case value(Double)
        /// `NaN`, `NRes` (not at this resolution), `+INFINITY`, `-INFINITY`, `reserved`.
        case special(String)
    }

    /// SFLOAT: a 4-bit exponent above a 12-bit mantissa.
    public static func short(_ raw: UInt16) -> Decoded {
        let mantissa = Int64(raw & 0x0FFF)
        if let special = special(mantissa, nan: 0x07FF) { return special }
        return .value(scaled(signExtend(mantissa, bits: 12), exponent: signExtend(Int64(raw >> 12), bits: 4)))
    }

    /// FLOAT: an 8-bit exponent above a 24-bit mantissa.
    public static func long(_ raw: UInt32) -> Decoded {
        let mantissa = Int64(raw & 0x00FF_FFFF)
        if let special = special(mantissa, nan: 0x007F_FFFF) { return special }
        return .value(scaled(signExtend(mantissa, bits: 24), exponent: signExtend(Int64(raw >> 24), bits: 8)))
    }

    /// The reserved mantissas, from NaN (the largest positive) on: NaN, NRes, reserved, -INFINITY; +INFINITY one below
    /// NaN.
    private static func special(_ mantissa: Int64, nan: Int64) -> Decoded? {
        switch mantissa {
        case nan: .special("NaN")
        case nan + 1: .special("NRes")
        case nan - 1: .special("+INFINITY")
        case nan + 3: .special("-INFINITY")
        case nan + 2: .special("reserved")
        default: nil
        }
    }

    private static func signExtend(_ value: Int64, bits: Int64) -> Int64 {
        let shift = 64 - bits
        return (value << shift) >> shift
    }

    /// `mantissa` × 10^`exponent`, dividing by an exact power of ten for a negative exponent (one rounding).
    private static func scaled(_ mantissa: Int64, exponent: Int64) -> Double {
        DecimalScale(multiplier: mantissa, exponent: Int(exponent)).apply(1)
    }
}
