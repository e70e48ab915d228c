/// A stream's payload written straight into the string's own storage: one allocation, no interpolation. A fast
/// stream's value (up to hundreds a second per device) built with `+`, `\(…)` or `JSONValue` spent most of its
/// notification path there (callgrind: 17 000 of a belt heading's 34 000 instructions).
struct PayloadWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    /// The text `body` writes, at most `capacity` bytes (more is a bug in the caller).
    static func text(capacity: Int, _ body: (inout PayloadWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = PayloadWriter(buffer: buffer)
            body(&writer)
            return writer.count
        }
    }

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    private mutating func byte(_ byte: UInt8) {
        precondition(count < buffer.count, "payload longer than its capacity")
        buffer[count] = byte
        count += 1
    }

    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { for byte in $0 { self.byte(byte) } }
    }

    mutating func append(_ text: String) {
        for byte in text.utf8 { self.byte(byte) }
    }

    /// In decimal, as `String(value)` writes it.
    mutating func append(_ value: some BinaryInteger) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        var magnitude = UInt64(value.magnitude)
        var length = 1
        var rest = magnitude / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        precondition(count + length <= buffer.count, "payload longer than its capacity")
        var index = count + length - 1
        repeat {
            buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
        count += length
    }

    mutating func append(_ value: Bool) {
        append(value ? "true" : "false")
    }
}
