import Peripherals

/// An integer times a power of ten (a declared field's raw value and its `DecimalScale`) written as the digits JSON
/// gives the double nearest it (`JSONValue.number`), without the double: where the decimal has at most 15 significant
/// digits, no other decimal as short maps to the same double, so the shortest text that reads back (Swift's
/// description of a double) is the decimal itself, trailing zeros dropped; and from 10^-4 up to 10^15 that text is
/// written without an exponent. Outside those bounds nothing is written and the caller takes the double's text.
enum ExactDecimal {
    /// The bound of the digits written: 15 significant digits, below where `JSONValue` writes an exponent.
    private static let limit: UInt64 = 1_000_000_000_000_000

    /// Writes `value × scale` and returns true, or returns false and writes nothing.
    static func write(_ value: Int64, scaledBy scale: DecimalScale, into text: inout ShortText) -> Bool {
        let (product, overflow) = value.multipliedReportingOverflow(by: scale.multiplier)
        guard !overflow, product.magnitude < limit else { return false }
        var magnitude = product.magnitude
        if scale.exponent >= 0 {
            for _ in 0..<scale.exponent {
                magnitude *= 10
                guard magnitude < limit else { return false }
            }
            if product < 0 { text.push(UInt8(ascii: "-")) }
            text.pushDigits(magnitude)
            return true
        }
        let places = -scale.exponent
        guard places <= 18 else { return false }
        var divisor: UInt64 = 1
        for _ in 0..<places { divisor *= 10 }
        let (whole, fraction) = magnitude.quotientAndRemainder(dividingBy: divisor)
        // Below 10^-4 the double's text has an exponent.
        guard fraction == 0 || magnitude * 10_000 >= divisor else { return false }
        if product < 0 { text.push(UInt8(ascii: "-")) }
        text.pushDigits(whole)
        if fraction != 0 {
            // The fraction's digits with its leading zeros, without its trailing ones.
            var digits = fraction
            var shown = places
            while digits % 10 == 0 {
                digits /= 10
                shown -= 1
            }
            text.push(UInt8(ascii: "."))
            text.pushDigits(digits, count: shown)
        }
        return true
    }
}

/// Up to 48 bytes of a number's text, on the stack, appended to the output at once (an append a digit checked the
/// array's capacity and uniqueness each time). `ExactDecimal` writes into it.
struct ShortText {
    /// The longest text it holds: a double's JSON text is at most 24 bytes, an integer's 20.
    static let capacity = 48

    private var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0)
    private var count = 0

    mutating func push(_ byte: UInt8) {
        let at = count
        withUnsafeMutableBytes(of: &bytes) { $0[at] = byte }
        count += 1
    }

    /// The last `count` decimal digits of `value`, leading zeros included.
    mutating func pushDigits(_ value: UInt64, count digits: Int) {
        let start = count
        withUnsafeMutableBytes(of: &bytes) { buffer in
            var rest = value
            var index = start + digits
            while index > start {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        count += digits
    }

    /// `value`'s decimal digits.
    mutating func pushDigits(_ value: UInt64) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        pushDigits(value, count: digits)
    }

    /// An integer's JSON: its sign and digits.
    mutating func pushInteger(_ value: Int64) {
        if value < 0 { push(UInt8(ascii: "-")) }
        pushDigits(value.magnitude)
    }

    /// A text of at most `capacity` bytes less what it holds, byte by byte (the rare double's text).
    mutating func push(_ text: String) {
        for byte in text.utf8.prefix(Self.capacity - count) { push(byte) }
    }

    /// Its bytes into `buffer` from `offset`; the offset after them.
    func copy(into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        withUnsafeBytes(of: bytes) { own in
            for index in 0..<count { buffer[offset + index] = own[index] }
        }
        return offset + count
    }

    func append(to output: inout [UInt8]) {
        withUnsafeBytes(of: bytes) { output.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
}
