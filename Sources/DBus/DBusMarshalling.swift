import CDBus

/// Writes ``DBusValue``s into a libdbus message and reads them back.
enum DBusMarshalling {
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws {
        var iter = DBusMessageIter()
        dbus_message_iter_init_append(message, &iter)
        for value in values {
            try append(value, to: &iter)
        }
    }

    static func decodeArguments(of message: OpaquePointer) -> [DBusValue] {
        var iter = DBusMessageIter()
        guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
        var values: [DBusValue] = []
        repeat {
            if let value = decode(&iter) { values.append(value) }
        } while dbus_message_iter_next(&iter) != 0
        return values
    }

    // MARK: Encoding

    private static func append(_ value: DBusValue, to iter: inout DBusMessageIter) throws {
        switch value {
        case .byte(var v): try appendBasic(&iter, CDBUS_TYPE_BYTE, &v)
        case .boolean(let b):
            var v: dbus_bool_t = b ? 1 : 0
            try appendBasic(&iter, CDBUS_TYPE_BOOLEAN, &v)
        case .int16(var v): try appendBasic(&iter, CDBUS_TYPE_INT16, &v)
        case .uint16(var v): try appendBasic(&iter, CDBUS_TYPE_UINT16, &v)
        case .int32(var v): try appendBasic(&iter, CDBUS_TYPE_INT32, &v)
        case .uint32(var v): try appendBasic(&iter, CDBUS_TYPE_UINT32, &v)
        case .int64(var v): try appendBasic(&iter, CDBUS_TYPE_INT64, &v)
        case .uint64(var v): try appendBasic(&iter, CDBUS_TYPE_UINT64, &v)
        case .double(var v): try appendBasic(&iter, CDBUS_TYPE_DOUBLE, &v)
        case .unixFD(var v):
            guard v >= 0 else { throw DBusMarshalError("negative file descriptor") }
            try appendBasic(&iter, CDBUS_TYPE_UNIX_FD, &v)
        case .string(let s):
            guard !s.utf8.contains(0) else { throw DBusMarshalError("string contains NUL") }
            try appendString(&iter, CDBUS_TYPE_STRING, s)
        case .objectPath(let p):
            guard DBusNames.isValidObjectPath(p) else { throw DBusMarshalError("invalid object path '\(p)'") }
            try appendString(&iter, CDBUS_TYPE_OBJECT_PATH, p)
        case .signature(let g):
            guard g.isEmpty || isValidSignature(g, single: false) else {
                throw DBusMarshalError("invalid signature '\(g)'")
            }
            try appendString(&iter, CDBUS_TYPE_SIGNATURE, g)
        case .bytes(let bytes):
            try container(&iter, CDBUS_TYPE_ARRAY, "y") { sub in
                try bytes.withUnsafeBufferPointer { buffer in
                    // libdbus needs non-NULL even for 0 bytes.
                    var base = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)
                    guard dbus_message_iter_append_fixed_array(&sub, CDBUS_TYPE_BYTE, &base, Int32(buffer.count)) != 0
                    else { throw DBusMarshalError("out of memory") }
                }
            }
        case .array(let element, let items):
            guard isValidSignature(element, single: true) else {
                throw DBusMarshalError("invalid element type '\(element)'")
            }
            try container(&iter, CDBUS_TYPE_ARRAY, element) { sub in
                for item in items {
                    guard item.signature == element else {
                        throw DBusMarshalError("array of '\(element)' holds a '\(item.signature)'")
                    }
                    try append(item, to: &sub)
                }
            }
        case .dictionary(let keyType, let valueType, let entries):
            let entrySignature = "{" + keyType + valueType + "}"
            guard keyType.count == 1, isValidSignature("a" + entrySignature, single: true) else {
                throw DBusMarshalError("invalid dictionary type 'a\(entrySignature)'")
            }
            try container(&iter, CDBUS_TYPE_ARRAY, entrySignature) { sub in
                for entry in entries {
                    guard entry.key.signature == keyType, entry.value.signature == valueType else {
                        throw DBusMarshalError(
                            "dictionary 'a\(entrySignature)' holds a '\(entry.key.signature)\(entry.value.signature)' entry"
                        )
                    }
                    try container(&sub, CDBUS_TYPE_DICT_ENTRY, nil) { pair in
                        try append(entry.key, to: &pair)
                        try append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw DBusMarshalError("empty structure") }
            try container(&iter, CDBUS_TYPE_STRUCT, nil) { sub in
                for field in fields { try append(field, to: &sub) }
            }
        case .variant(let inner):
            try container(&iter, CDBUS_TYPE_VARIANT, inner.signature) { sub in
                try append(inner, to: &sub)
            }
        }
    }

    private static func appendBasic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ type: Int32, _ value: inout T)
        throws
    {
        let ok = withUnsafeMutablePointer(to: &value) { dbus_message_iter_append_basic(&iter, type, $0) }
        guard ok != 0 else { throw DBusMarshalError("out of memory") }
    }

    private static func appendString(_ iter: inout DBusMessageIter, _ type: Int32, _ text: String) throws {
        try text.withCString { pointer in
            var p: UnsafePointer<CChar>? = pointer
            try appendBasic(&iter, type, &p)
        }
    }

    private static func container(
        _ iter: inout DBusMessageIter, _ type: Int32, _ signature: String?,
        _ body: (inout DBusMessageIter) throws -> Void
    ) throws {
        var sub = DBusMessageIter()
        let opened: dbus_bool_t =
            if let signature { signature.withCString { dbus_message_iter_open_container(&iter, type, $0, &sub) } } else
            { dbus_message_iter_open_container(&iter, type, nil, &sub) }
        guard opened != 0 else { throw DBusMarshalError("out of memory") }
        do {
            try body(&sub)
        } catch {
            dbus_message_iter_abandon_container(&iter, &sub)
            throw error
        }
        guard dbus_message_iter_close_container(&iter, &sub) != 0 else { throw DBusMarshalError("out of memory") }
    }

    static func isValidSignature(_ signature: String, single: Bool) -> Bool {
        signature.withCString {
            single ? dbus_signature_validate_single($0, nil) != 0 : dbus_signature_validate($0, nil) != 0
        }
    }

    // MARK: Decoding

    private static func decode(_ iter: inout DBusMessageIter) -> DBusValue? {
        let type = dbus_message_iter_get_arg_type(&iter)
        switch type {
        case CDBUS_TYPE_BYTE: return .byte(basic(&iter, UInt8(0)))
        case CDBUS_TYPE_BOOLEAN: return .boolean(basic(&iter, dbus_bool_t(0)) != 0)
        case CDBUS_TYPE_INT16: return .int16(basic(&iter, Int16(0)))
        case CDBUS_TYPE_UINT16: return .uint16(basic(&iter, UInt16(0)))
        case CDBUS_TYPE_INT32: return .int32(basic(&iter, Int32(0)))
        case CDBUS_TYPE_UINT32: return .uint32(basic(&iter, UInt32(0)))
        case CDBUS_TYPE_INT64: return .int64(basic(&iter, Int64(0)))
        case CDBUS_TYPE_UINT64: return .uint64(basic(&iter, UInt64(0)))
        case CDBUS_TYPE_DOUBLE: return .double(basic(&iter, Double(0)))
        case CDBUS_TYPE_UNIX_FD: return .unixFD(basic(&iter, Int32(-1)))
        case CDBUS_TYPE_STRING: return .string(text(&iter))
        case CDBUS_TYPE_OBJECT_PATH: return .objectPath(text(&iter))
        case CDBUS_TYPE_SIGNATURE: return .signature(text(&iter))
        case CDBUS_TYPE_VARIANT:
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            return decode(&sub).map(DBusValue.variant)
        case CDBUS_TYPE_STRUCT:
            return .structure(children(&iter))
        case CDBUS_TYPE_ARRAY:
            return decodeArray(&iter)
        default:
            return nil
        }
    }

    private static func decodeArray(_ iter: inout DBusMessageIter) -> DBusValue {
        let elementType = dbus_message_iter_get_element_type(&iter)
        if elementType == CDBUS_TYPE_BYTE {
            var sub = DBusMessageIter()
            dbus_message_iter_recurse(&iter, &sub)
            var pointer: UnsafeMutablePointer<UInt8>?
            var count: Int32 = 0
            dbus_message_iter_get_fixed_array(&sub, &pointer, &count)
            guard let pointer, count > 0 else { return .bytes([]) }
            return .bytes(Array(UnsafeBufferPointer(start: pointer, count: Int(count))))
        }
        // The container's own signature names the element type even when the array is empty.
        let signature = containerSignature(&iter)
        let element = String(signature.dropFirst())
        let items = children(&iter)
        if elementType == CDBUS_TYPE_DICT_ENTRY {
            let inner = element.dropFirst().dropLast()  // strip "{" and "}"
            let keyType = String(inner.prefix(1))
            let valueType = String(inner.dropFirst())
            let entries = items.compactMap { item -> DBusDictEntry? in
                guard case .structure(let pair) = item, pair.count == 2 else { return nil }
                return DBusDictEntry(pair[0], pair[1])
            }
            return .dictionary(keySignature: keyType, valueSignature: valueType, entries)
        }
        return .array(elementSignature: element, items)
    }

    /// Decodes the members of a container; dict entries come back as two-field structures.
    private static func children(_ iter: inout DBusMessageIter) -> [DBusValue] {
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var items: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&sub) != CDBUS_TYPE_INVALID {
            if dbus_message_iter_get_arg_type(&sub) == CDBUS_TYPE_DICT_ENTRY {
                items.append(.structure(children(&sub)))
            } else if let value = decode(&sub) {
                items.append(value)
            }
            dbus_message_iter_next(&sub)
        }
        return items
    }

    private static func containerSignature(_ iter: inout DBusMessageIter) -> String {
        guard let raw = dbus_message_iter_get_signature(&iter) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }

    private static func basic<T: BitwiseCopyable>(_ iter: inout DBusMessageIter, _ initial: T) -> T {
        var value = initial
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iter, $0) }
        return value
    }

    private static func text(_ iter: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iter, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }
}
