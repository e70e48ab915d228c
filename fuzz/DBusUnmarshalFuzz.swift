// libFuzzer target: a D-Bus message from the wire through libdbus's dbus_message_demarshal and, when
// libdbus accepts it, the project's DBusMarshalling.decodeArguments(of:), what every method reply
// and signal from BlueZ goes through. DBusMarshalling is internal, so scripts/fuzz compiles this file
// into the DBus module with its sources.
//
// Input: either one whole marshalled message (it starts with the endianness mark `l` or `B`), or a
// signature, a NUL and a body, which this file wraps in a little-endian signal header so that the
// fuzzer works on the body (libdbus is not instrumented, so it cannot see its way through a header).
// Checks: never traps; the decoded values cover the
// message's signature exactly; the accessors work on them; re-marshalling them with
// DBusMarshalling.append succeeds (file descriptors aside: a demarshalled message carries none, so
// they decode as -1, which append refuses) and decodes again to the same values.
import CDBus

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let bytes = input.first == UInt8(ascii: "l") || input.first == UInt8(ascii: "B") ? input : signal(wrapping: input)
    guard bytes.count <= Int(Int32.max) else { return 0 }
    var error = CDBus.DBusError()
    dbus_error_init(&error)
    defer { dbus_error_free(&error) }
    let demarshalled = bytes.withUnsafeBytes {
        dbus_message_demarshal($0.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), &error)
    }
    guard let message = demarshalled else { return 0 }
    defer { dbus_message_unref(message) }

    let values = DBusMarshalling.decodeArguments(of: message)
    let signature = String(cString: dbus_message_get_signature(message))
    guard values.map(\.signature).joined() == signature else {
        fatalError("signature \(signature) decoded as \(values)")
    }
    for value in values { touch(value) }

    guard let copy = dbus_message_new_signal("/fuzz", "org.gatt2mqtt.Fuzz", "Copy") else { fatalError("out of memory") }
    defer { dbus_message_unref(copy) }
    do {
        try DBusMarshalling.append(values, to: copy)
    } catch {
        if values.contains(where: holdsFileDescriptor) { return 0 }
        fatalError("cannot re-marshal \(values): \(error)")
    }
    let again = DBusMarshalling.decodeArguments(of: copy)
    // Compared as text so that NaNs compare equal to themselves.
    guard "\(again)" == "\(values)" else { fatalError("\(values) comes back as \(again)") }
    return 0
}

/// Runs every accessor the BlueZ layer uses, down the whole tree.
private func touch(_ value: DBusValue) {
    _ = (value.string, value.bool, value.uint8, value.int16, value.uint16, value.int32, value.uint32)
    _ = (value.bytes, value.strings, value.stringKeyed)
    for element in value.elements ?? [] { touch(element) }
    for entry in value.dictEntries ?? [] {
        touch(entry.key)
        touch(entry.value)
    }
    switch value {
    case .variant(let inner): touch(inner)
    case .structure(let fields): fields.forEach(touch)
    default: break
    }
}

private func holdsFileDescriptor(_ value: DBusValue) -> Bool {
    switch value {
    case .unixFD: true
    case .variant(let inner): holdsFileDescriptor(inner)
    case .structure(let items), .array(_, let items): items.contains(where: holdsFileDescriptor)
    case .dictionary(_, _, let entries):
        entries.contains { holdsFileDescriptor($0.key) || holdsFileDescriptor($0.value) }
    default: false
    }
}

/// `signature NUL body` as a marshalled signal: the fixed header, PATH, INTERFACE, MEMBER and (unless
/// empty) SIGNATURE fields, padding to 8, the body (D-Bus specification, "Message Format").
private func signal(wrapping input: [UInt8]) -> [UInt8] {
    let signature = Array(input.prefix { $0 != 0 }.prefix(255))
    let body = input.count > signature.count ? Array(input.dropFirst(signature.count + 1)) : []
    var fields: [UInt8] = []
    func field(_ code: UInt8, _ type: Character, _ value: [UInt8]) {
        while fields.count % 8 != 0 { fields.append(0) }
        fields += [code, 1, type.asciiValue ?? 0, 0]
        if type == "g" { fields.append(UInt8(value.count)) } else { fields += littleEndian(UInt32(value.count)) }
        fields += value + [0]
    }
    field(1, "o", Array("/fuzz".utf8))
    field(2, "s", Array("org.gatt2mqtt.Fuzz".utf8))
    field(3, "s", Array("Body".utf8))
    if !signature.isEmpty { field(8, "g", signature) }
    var message: [UInt8] = [UInt8(ascii: "l"), 4, 0, 1] + littleEndian(UInt32(body.count)) + littleEndian(1)
    message += littleEndian(UInt32(fields.count)) + fields
    while message.count % 8 != 0 { message.append(0) }
    return message + body
}

private func littleEndian(_ value: UInt32) -> [UInt8] {
    (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
}
