// Every multi-byte field on the belt (belt.md §3) and on the Activ5 (activ5.md §5) is little-endian.
// Reads return nil instead of trapping.

extension UInt16 {
    /// The two bytes, low byte first.
    public var littleEndianBytes: [UInt8] { [UInt8(truncatingIfNeeded: self), UInt8(truncatingIfNeeded: self >> 8)] }
}

extension Int16 {
    /// The two bytes of the two's complement, low byte first.
    public var littleEndianBytes: [UInt8] { UInt16(bitPattern: self).littleEndianBytes }
}

extension UInt32 {
    /// The four bytes, low byte first.
    public var littleEndianBytes: [UInt8] {
        UInt16(truncatingIfNeeded: self).littleEndianBytes + UInt16(truncatingIfNeeded: self >> 16).littleEndianBytes
    }
}

extension Int32 {
    /// The four bytes of the two's complement, low byte first.
    public var littleEndianBytes: [UInt8] { UInt32(bitPattern: self).littleEndianBytes }
}

extension Array where Element == UInt8 {
    /// The byte at `index`, or nil past the end.
    func byte(at index: Int) -> UInt8? {
        indices.contains(index) ? self[index] : nil
    }

    /// The u16 LE at `index`, or nil if fewer than two bytes remain.
    public func uint16(at index: Int) -> UInt16? {
        guard index >= 0, index + 1 < count else { return nil }
        return UInt16(self[index]) | UInt16(self[index + 1]) << 8
    }

    /// The i16 LE at `index`, or nil if fewer than two bytes remain.
    public func int16(at index: Int) -> Int16? {
        uint16(at: index).map { Int16(bitPattern: $0) }
    }

    /// The i8 at `index`, or nil past the end.
    func int8(at index: Int) -> Int8? {
        byte(at: index).map { Int8(bitPattern: $0) }
    }

    /// The u32 LE at `index`, or nil if fewer than four bytes remain.
    func uint32(at index: Int) -> UInt32? {
        guard let low = uint16(at: index), let high = uint16(at: index + 2) else { return nil }
        return UInt32(low) | UInt32(high) << 16
    }

    /// The i32 LE at `index`, or nil if fewer than four bytes remain.
    func int32(at index: Int) -> Int32? {
        uint32(at: index).map { Int32(bitPattern: $0) }
    }
}
