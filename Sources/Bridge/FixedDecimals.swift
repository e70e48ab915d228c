/// A number as text with two decimals, exactly as `%.2f` writes it ("23.41", "-0.50", "-0.00"), without
/// printf and Foundation's formatting machinery: it runs for every force sample on the hot path (and
/// writes the CPR band's distance).
/// Values beyond ±10¹³, and NaN and infinities, which no sensor reports, fall back to `description`.
enum TwoDecimals {
    static func text(_ value: Double) -> String {
        guard value.isFinite, value.magnitude < 1e13 else { return value.description }
        let hundredths = roundedHundredths(value.magnitude)
        let units = hundredths / 100
        let cents = hundredths % 100
        let sign = value.sign == .minus ? "-" : ""
        return sign + String(units) + (cents < 10 ? ".0" : ".") + String(cents)
    }

    /// `magnitude × 100` rounded as printf rounds the exact binary value: to nearest, an exact tie to
    /// even. The product itself is inexact, so each comparison is made exactly with a fused multiply-add.
    private static func roundedHundredths(_ magnitude: Double) -> UInt64 {
        var floor = (magnitude * 100).rounded(.down)
        if (-floor).addingProduct(magnitude, 100) < 0 {
            floor -= 1
        } else if (-(floor + 1)).addingProduct(magnitude, 100) >= 0 {
            floor += 1
        }
        let aboveHalf = (-(floor + 0.5)).addingProduct(magnitude, 100)
        let even = floor.truncatingRemainder(dividingBy: 2) == 0
        let rounded = aboveHalf > 0 || (aboveHalf == 0 && !even) ? floor + 1 : floor
        return UInt64(rounded)
    }
}
