/// A number as text with a fixed number of decimals, exactly as `%.2f` (or `%.1f`) writes it ("23.41",
/// "-0.50", "-0.00"), without printf and Foundation's formatting machinery: it runs for every force
/// sample on the hot path (and writes the CPR band's depth and distance).
/// Values beyond ±10¹³, and NaN and infinities, which no sensor reports, fall back to `description`.
enum FixedDecimals {
    /// `places` from 1 to 4.
    static func text(_ value: Double, places: Int = 2) -> String {
        precondition((1...4).contains(places), "FixedDecimals takes 1 to 4 places")
        guard value.isFinite, value.magnitude < 1e13 else { return value.description }
        var scale: UInt64 = 1
        for _ in 0..<places { scale *= 10 }
        var digits = rounded(value.magnitude, times: Double(scale))
        // Written from the last digit into one buffer on the stack: the fraction, the point, the units (at
        // least one), the sign; at most 1 + 14 + 1 + 4 characters below 10¹³.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var start = buffer.count
            func put(_ byte: UInt8) {
                start -= 1
                buffer[start] = byte
            }
            for _ in 0..<places {
                put(UInt8(ascii: "0") + UInt8(digits % 10))
                digits /= 10
            }
            put(UInt8(ascii: "."))
            repeat {
                put(UInt8(ascii: "0") + UInt8(digits % 10))
                digits /= 10
            } while digits > 0
            if value.sign == .minus { put(UInt8(ascii: "-")) }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }

    /// `magnitude × scale` rounded as printf rounds the exact binary value: to nearest, an exact tie to
    /// even. The product itself is inexact, so each comparison is made exactly with a fused multiply-add.
    private static func rounded(_ magnitude: Double, times scale: Double) -> UInt64 {
        var floor = (magnitude * scale).rounded(.down)
        if (-floor).addingProduct(magnitude, scale) < 0 {
            floor -= 1
        } else if (-(floor + 1)).addingProduct(magnitude, scale) >= 0 {
            floor += 1
        }
        let aboveHalf = (-(floor + 0.5)).addingProduct(magnitude, scale)
        let even = floor.truncatingRemainder(dividingBy: 2) == 0
        let rounded = aboveHalf > 0 || (aboveHalf == 0 && !even) ? floor + 1 : floor
        return UInt64(rounded)
    }
}
