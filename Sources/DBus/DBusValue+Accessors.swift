/// Typed views of a ``DBusValue``; each returns nil when the value has another type.
/// Variants are looked through, so `properties["Name"]?.string` works on an `a{sv}` entry.
extension DBusValue {
    /// The value inside any number of variant wrappers.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    public var string: String? {
        switch unwrapped {
        case .string(let value), .objectPath(let value), .signature(let value): value
        default: nil
        }
    }

    public var bool: Bool? {
        if case .boolean(let value) = unwrapped { return value }
        return nil
    }

    public var uint8: UInt8? {
        if case .byte(let value) = unwrapped { return value }
        return nil
    }

    public var int16: Int16? {
        if case .int16(let value) = unwrapped { return value }
        return nil
    }

    public var uint16: UInt16? {
        if case .uint16(let value) = unwrapped { return value }
        return nil
    }

    public var int32: Int32? {
        if case .int32(let value) = unwrapped { return value }
        return nil
    }

    public var uint32: UInt32? {
        if case .uint32(let value) = unwrapped { return value }
        return nil
    }

    public var fileDescriptor: Int32? {
        if case .unixFD(let value) = unwrapped { return value }
        return nil
    }

    /// The bytes of an `ay`, also when it was built as a generic array of bytes.
    public var bytes: [UInt8]? {
        switch unwrapped {
        case .bytes(let value): return value
        case .array("y", let items): return items.compactMap(\.uint8)
        default: return nil
        }
    }

    /// The elements of any array (`ay` gives its bytes as `.byte` values).
    public var elements: [DBusValue]? {
        switch unwrapped {
        case .array(_, let items): items
        case .bytes(let value): value.map(DBusValue.byte)
        default: nil
        }
    }

    /// The strings of an `as` or `ao`.
    public var strings: [String]? {
        elements?.compactMap(\.string)
    }

    /// The entries of any dictionary.
    public var dictEntries: [DBusDictEntry]? {
        if case .dictionary(_, _, let entries) = unwrapped { return entries }
        return nil
    }

    /// A dictionary with string (or object path) keys, such as `a{sv}` or `a{oa{sa{sv}}}`.
    /// Values keep their variant wrapper; the typed accessors look through it.
    public var stringKeyed: [String: DBusValue]? {
        guard let entries = dictEntries else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.string else { return nil }
            result[key] = entry.value
        }
        return result
    }
}
