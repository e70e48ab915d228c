/// One D-Bus value of any type, as it travels in a message.
///
/// `ay` always decodes to ``bytes(_:)`` (the fast path for GATT values); any other array decodes to
/// ``array(elementSignature:_:)`` and any `a{..}` to ``dictionary(keySignature:valueSignature:_:)``.
/// Containers carry their element signatures so that empty ones still marshal with the right type.
public indirect enum DBusValue: Sendable, Equatable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A file descriptor. A decoded one is a fresh `dup()` that its receiver must close; an encoded one
    /// is duplicated by libdbus, so the sender keeps ownership of its own.
    case unixFD(Int32)
    case bytes([UInt8])
    case array(elementSignature: String, [DBusValue])
    case dictionary(keySignature: String, valueSignature: String, [DBusDictEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's D-Bus type signature, e.g. `a{sv}`.
    public var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .bytes: "ay"
        case .array(let element, _): "a" + element
        case .dictionary(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

/// One key/value pair of a D-Bus dictionary (`a{..}`).
public struct DBusDictEntry: Sendable, Equatable {
    public var key: DBusValue
    public var value: DBusValue

    public init(_ key: DBusValue, _ value: DBusValue) {
        self.key = key
        self.value = value
    }
}
