/// A value decoded from a declared field, as it is published.
public enum DeclaredValue: Sendable, Equatable {
    case integer(Int64)
    /// An unsigned integer too large for `Int64` (a u64 above 2^63 - 1).
    case unsignedInteger(UInt64)
    case number(Double)
    case text(String)
    case flag(Bool)
    /// IEEE 11073's special values: `NaN`, `NRes`, `+INFINITY`, `-INFINITY`, `reserved` (published as strings, as a
    /// JSON number cannot say them).
    case special(String)
    case list([DeclaredValue])
}

/// The Supplement's scaling, "M × 10^d": a whole multiplier and a decimal exponent, so that 0.01 × 2150 is 21.5 and
/// not the binary neighbour a multiplication by 0.01 gives (the division by an exact power of ten rounds once).
public struct DecimalScale: Sendable, Equatable {
    public var multiplier: Int64
    public var exponent: Int

    public static let one = DecimalScale(multiplier: 1, exponent: 0)

    public init(multiplier: Int64, exponent: Int) {
        self.multiplier = multiplier
        self.exponent = exponent
    }

    /// `0.005`, `1`, `100`, `-1.5`, `0.0009765625` → the scale; nil for anything else (an exponent, more than 18
    /// digits).
    public init?(_ text: String) {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative { digits = digits.dropFirst() }
        let parts = digits.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0]
        let fraction = parts.count == 2 ? parts[1] : ""
        guard !whole.isEmpty || !fraction.isEmpty, whole.count + fraction.count <= 18,
            (whole + fraction).allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int64(whole + fraction)
        else { return nil }
        self.init(multiplier: negative ? -value : value, exponent: -fraction.count)
    }

    /// The integer `raw` scaled and rounded to `decimals` digits after the point, half away from zero, in integer
    /// arithmetic: the one rounding left is the last division's, to the double nearest that decimal (so RR intervals
    /// of 1/1024 s are milliseconds with one decimal exactly as the written heart rate family rounds them). Nil
    /// where the product would not fit.
    public func apply(_ raw: Int64, decimals: Int) -> Double? {
        let (product, overflow) = raw.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        // The digits to drop: the scale's own decimals beyond those kept (none to drop: exact already).
        let dropped = -exponent - decimals
        guard dropped > 0 else { return apply(Double(raw)) }
        guard dropped <= 18 else { return nil }
        var divisor: Int64 = 1
        for _ in 0..<dropped { divisor *= 10 }
        let (quotient, remainder) = product.quotientAndRemainder(dividingBy: divisor)
        let kept = remainder.magnitude * 2 >= divisor.magnitude ? quotient + (product < 0 ? -1 : 1) : quotient
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        return Double(kept) / power
    }

    /// `raw` scaled.
    public func apply(_ raw: Double) -> Double {
        let scaled = raw * Double(multiplier)
        var power = 1.0
        for _ in 0..<abs(exponent) { power *= 10 }
        return exponent < 0 ? scaled / power : scaled * power
    }
}
