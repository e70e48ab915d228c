/// Why a declared characteristic's value could not be decoded. Bytes the declaration does not explain are refused,
/// as the written families refuse them: they mean the flags are not what the declaration thinks.
public enum DeclaredDecodeReason: Equatable, Sendable {
    case tooShort(field: String, needed: Int, left: Int)
    case trailingBytes(Int)
    /// A repeated field's bytes left are not a whole number of fields.
    case partialRepeat(field: String, left: Int)
    case notUTF8(field: String)
    /// Longer than an attribute value can be (512 bytes, Core Specification Vol 3 Part F 3.2.9).
    case tooLong(maximum: Int, actual: Int)
}

public typealias DeclaredDecodeError = DecodeFailure<DeclaredDecodeReason>

/// One published value of a decoded characteristic: a field's, or a bit field's of an integer field.
public struct DecodedField: Sendable, Equatable {
    public var name: String
    public var value: DeclaredValue
    public var unit: String?
    /// Retained or not, where its field or bit field says; nil: as its characteristic.
    public var retain: Bool?

    public init(name: String, value: DeclaredValue, unit: String? = nil, retain: Bool? = nil) {
        self.name = name
        self.value = value
        self.unit = unit
        self.retain = retain
    }
}

/// Decodes a declared characteristic's value, field after field as the declaration lays them out.
public enum DeclaredDecoder {
    /// The longest attribute value.
    public static let maximumByteCount = 512

    /// The published fields of `bytes` in declaration order; a field whose condition is not met is left out.
    public static func decode(
        _ bytes: [UInt8], fields: [DeclaredField], characteristic: String
    ) throws(DeclaredDecodeError) -> [DecodedField] {
        func fail(_ reason: DeclaredDecodeReason) -> DeclaredDecodeError {
            DeclaredDecodeError(characteristic: characteristic, reason: reason)
        }
        guard bytes.count <= maximumByteCount else {
            throw fail(.tooLong(maximum: maximumByteCount, actual: bytes.count))
        }
        var reader = ByteReader(bytes: bytes)
        // The integer fields read so far, for the conditions of later ones: a few, searched from the newest (as a
        // dictionary would keep an alternative's value), without hashing a name per field and value.
        var raws: [(name: String, value: UInt64)] = []
        raws.reserveCapacity(fields.count)
        var decoded: [DecodedField] = []
        decoded.reserveCapacity(fields.count + 4)
        for field in fields {
            let present = field.conditions.allSatisfy { condition in
                ((raws.last { $0.name == condition.field }?.value ?? 0) >> UInt64(condition.bit) & 1 == 1)
                    == condition.set
            }
            guard present else { continue }
            let value: DeclaredValue
            if field.repeated {
                let size = field.type.size ?? 1
                guard reader.left.isMultiple(of: size) else {
                    throw fail(.partialRepeat(field: field.name, left: reader.left))
                }
                var values: [DeclaredValue] = []
                // One or more: a repeated field its flag says is there, with nothing in it, means the flags lie.
                guard reader.left > 0 else { throw fail(.tooShort(field: field.name, needed: size, left: 0)) }
                while reader.left > 0 {
                    values.append(try read(field, from: &reader, fail: fail).value)
                }
                value = .list(values)
            } else {
                let (read, raw) = try read(field, from: &reader, fail: fail)
                value = read
                if let raw { raws.append((field.name, raw)) }
                for bits in field.bits {
                    decoded.append(
                        DecodedField(
                            name: bits.name, value: bits.value(in: raw ?? 0), retain: bits.retain ?? field.retain))
                }
            }
            if field.published {
                decoded.append(DecodedField(name: field.name, value: value, unit: field.unit, retain: field.retain))
            }
        }
        guard reader.left == 0 else { throw fail(.trailingBytes(reader.left)) }
        return decoded
    }

    /// One field's value, and its raw bits where it is an integer.
    private static func read(
        _ field: DeclaredField, from reader: inout ByteReader, fail: (DeclaredDecodeReason) -> DeclaredDecodeError
    ) throws(DeclaredDecodeError) -> (value: DeclaredValue, raw: UInt64?) {
        // Text takes the rest of the value; every other type its size.
        let size = field.type.size ?? reader.left
        guard let slice = reader.take(size) else {
            throw fail(.tooShort(field: field.name, needed: size, left: reader.left))
        }
        return try value(of: field, in: slice, fail: fail)
    }

    /// One field's value from its bytes (its size's, or the rest of the value for text), and its raw bits where it is
    /// an integer: what `decode` makes of each field, for a caller that walks the fields itself (the gateway's
    /// compiled JSON of a declared stream falls back to it for what it does not write itself).
    public static func value(of field: DeclaredField, in slice: ArraySlice<UInt8>, characteristic: String)
        throws(DeclaredDecodeError) -> (value: DeclaredValue, raw: UInt64?)
    {
        try value(of: field, in: slice) { DeclaredDecodeError(characteristic: characteristic, reason: $0) }
    }

    private static func value(
        of field: DeclaredField, in slice: ArraySlice<UInt8>, fail: (DeclaredDecodeReason) -> DeclaredDecodeError
    ) throws(DeclaredDecodeError) -> (value: DeclaredValue, raw: UInt64?) {
        switch field.type {
        case .unsigned(_, let bigEndian):
            let raw = Self.integer(slice, bigEndian: bigEndian)
            let exact: DeclaredValue = raw <= UInt64(Int64.max) ? .integer(Int64(raw)) : .unsignedInteger(raw)
            return (integerValue(exact, key: Int64(exactly: raw), number: Double(raw), field), raw)
        case .signed(let bytes, let bigEndian):
            let raw = Self.integer(slice, bigEndian: bigEndian)
            let signed = Self.signExtended(raw, bytes: bytes)
            return (integerValue(.integer(signed), key: signed, number: Double(signed), field), raw)
        case .float32(let bigEndian):
            let value = Double(Float(bitPattern: UInt32(truncatingIfNeeded: Self.integer(slice, bigEndian: bigEndian))))
            return (numberValue(value, field), nil)
        case .float64(let bigEndian):
            return (numberValue(Double(bitPattern: Self.integer(slice, bigEndian: bigEndian)), field), nil)
        case .sfloat:
            let decoded = IEEE11073Float.short(UInt16(truncatingIfNeeded: Self.integer(slice, bigEndian: false)))
            return (medicalValue(decoded, field), nil)
        case .medfloat:
            let decoded = IEEE11073Float.long(UInt32(truncatingIfNeeded: Self.integer(slice, bigEndian: false)))
            return (medicalValue(decoded, field), nil)
        case .utf8:
            // Devices pad names with NULs: they end the text.
            guard let text = String(validating: slice.prefix { $0 != 0 }, as: UTF8.self) else {
                throw fail(.notUTF8(field: field.name))
            }
            return (.text(text), nil)
        }
    }

    /// `raw`, the `bytes` low bytes of a two's complement integer, as an Int64.
    @inlinable
    public static func signExtended(_ raw: UInt64, bytes: Int) -> Int64 {
        let shift = UInt64(64 - 8 * bytes)
        return Int64(bitPattern: raw << shift) >> Int64(shift)
    }

    /// The bytes as an unsigned integer, read in place (a reversed copy of them was an array made for every field).
    @inlinable
    public static func integer(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> UInt64 {
        var value: UInt64 = 0
        if bigEndian {
            for byte in bytes { value = value << 8 | UInt64(byte) }
        } else {
            var index = bytes.endIndex
            while index > bytes.startIndex {
                index -= 1
                value = value << 8 | UInt64(bytes[index])
            }
        }
        return value
    }

    /// An integer as published: its name where `values` has one for `key` (or the `unlisted` prefix and its number
    /// where it has none), scaled where the field is, else `exact`.
    private static func integerValue(
        _ exact: DeclaredValue, key: Int64?, number: Double, _ field: DeclaredField
    ) -> DeclaredValue {
        if let key, let name = field.enumeration[key] { return .text(name) }
        if let prefix = field.unlisted {
            switch exact {
            case .unsignedInteger(let raw): return .text(prefix + String(raw))
            default: return .text(prefix + (key.map(String.init) ?? ""))
            }
        }
        guard field.scale == .one, field.offset == 0 else {
            if let decimals = field.decimals, field.offset == 0, let key,
                let exactlyRounded = field.scale.apply(key, decimals: decimals)
            {
                return .number(exactlyRounded)
            }
            return .number(rounded(field.scale.apply(number) + field.offset, field))
        }
        return exact
    }

    /// `value` to the field's `decimals`, half away from zero; as it is without them. From 2^52 up a double has no
    /// fraction to round (and a huge one times 10^decimals would overflow to an infinity: found by the fuzzer).
    private static func rounded(_ value: Double, _ field: DeclaredField) -> Double {
        guard let decimals = field.decimals, value.magnitude < 0x1p52 else { return value }
        var power = 1.0
        for _ in 0..<decimals { power *= 10 }
        return (value * power).rounded(.toNearestOrAwayFromZero) / power
    }

    private static func medicalValue(_ decoded: IEEE11073Float.Decoded, _ field: DeclaredField) -> DeclaredValue {
        switch decoded {
        case .value(let value): numberValue(value, field)
        case .special(let name): .special(name)
        }
    }

    /// A float scaled; IEEE 754's NaN and infinities as IEEE 11073 names them.
    private static func numberValue(_ value: Double, _ field: DeclaredField) -> DeclaredValue {
        if value.isNaN { return .special("NaN") }
        if value.isInfinite { return .special(value > 0 ? "+INFINITY" : "-INFINITY") }
        return .number(rounded(field.scale.apply(value) + field.offset, field))
    }
}

/// The bytes of a value, read from the front.
private struct ByteReader {
    let bytes: [UInt8]
    var position = 0

    var left: Int { bytes.count - position }

    /// The next `count` bytes; nil (and nothing taken) when fewer are left.
    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count <= left else { return nil }
        defer { position += count }
        return bytes[position..<position + count]
    }
}
