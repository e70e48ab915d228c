// Every multi-byte field on the belt is little-endian (belt.md §3). Reads return nil instead of trapping.

extension UInt16 {
    /// The two bytes, low byte first.
    var littleEndianBytes: [UInt8] { [UInt8(truncatingIfNeeded: self), UInt8(truncatingIfNeeded: self >> 8)] }
}

extension Int16 {
    /// The two bytes of the two's complement, low byte first.
    var littleEndianBytes: [UInt8] { UInt16(bitPattern: self).littleEndianBytes }
}

extension Array where Element == UInt8 {
    /// The byte at `index`, or nil past the end.
    func byte(at index: Int) -> UInt8? {
        indices.contains(index) ? self[index] : nil
    }

    /// The u16 LE at `index`, or nil if fewer than two bytes remain.
    func uint16(at index: Int) -> UInt16? {
        guard index >= 0, index + 1 < count else { return nil }
        return UInt16(self[index]) | UInt16(self[index + 1]) << 8
    }

    /// The i16 LE at `index`, or nil if fewer than two bytes remain.
    func int16(at index: Int) -> Int16? {
        uint16(at: index).map { Int16(bitPattern: $0) }
    }

    /// The i8 at `index`, or nil past the end.
    func int8(at index: Int) -> Int8? {
        byte(at: index).map { Int8(bitPattern: $0) }
    }
}
