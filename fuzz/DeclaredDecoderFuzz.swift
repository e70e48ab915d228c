// libFuzzer target: DeclaredDecoder.decode(_:fields:characteristic:), what the gateway will run on every value of a
// declared device (issue #59), over field lists the input itself declares.
//
// Input: byte 0 gives the number of fields (1 to 8, low 3 bits); then two bytes per field: its type (an index into
// `types`) and its options (bit 0: present only by a bit of field 0, bits 1-3 which bit, bit 4 set or clear; bit 5:
// repeated, kept for the last field only; bit 6: scale 0.01; bit 7: not published); a type byte's bit 7 rounds a
// scaled or floating-point field to the decimals its bits 4-6 say; field 0's bit 0 names its 0 and publishes any
// other value with a prefix (`unlisted`); the rest is the value. Field 0
// is an integer whenever a later field depends on it, as the declaration reader requires. Checks: never traps; the
// same bytes decode the same; a field is published at most once (the reader allows no twins here); every number is
// finite; a repeated field's list holds whole fields.
import Peripherals

let types: [DeclaredFieldType] = [
    .unsigned(bytes: 1, bigEndian: false), .unsigned(bytes: 2, bigEndian: false), .unsigned(bytes: 3, bigEndian: false),
    .unsigned(bytes: 4, bigEndian: false), .unsigned(bytes: 8, bigEndian: false), .signed(bytes: 1, bigEndian: false),
    .signed(bytes: 2, bigEndian: true), .signed(bytes: 3, bigEndian: false), .signed(bytes: 8, bigEndian: false),
    .float32(bigEndian: false), .float64(bigEndian: true), .sfloat, .medfloat, .utf8,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = input.first else { return 0 }
    let count = Int(first & 0x07) + 1
    guard input.count >= 1 + 2 * count else { return 0 }
    var fields: [DeclaredField] = []
    for index in 0..<count {
        let (typeByte, options) = (input[1 + 2 * index], input[2 + 2 * index])
        var type = types[Int(typeByte) % types.count]
        let last = index == count - 1
        if index == 0, !type.isInteger { type = .unsigned(bytes: 1, bigEndian: false) }
        if type == .utf8, !last { type = .unsigned(bytes: 2, bigEndian: false) }
        var field = DeclaredField(name: "f\(index)", type: type)
        if index > 0, options & 0x01 != 0 {
            field.conditions = [.init(field: "f0", bit: Int(options >> 1 & 0x07), set: options & 0x10 != 0)]
        }
        field.repeated = last && type != .utf8 && options & 0x20 != 0
        if options & 0x40 != 0, type != .utf8 { field.scale = DecimalScale(multiplier: 1, exponent: -2) }
        field.published = options & 0x80 == 0
        if typeByte & 0x80 != 0, type != .utf8, !type.isInteger || field.scale != .one {
            field.decimals = Int(typeByte >> 4 & 0x07)
        }
        if index == 0, options & 0x01 != 0 {
            field.enumeration = [0: "zero"]
            field.unlisted = "r_"
        }
        if index == 0, type.isInteger { field.bits = [.init(name: "b0", offset: 0, width: 1)] }
        fields.append(field)
    }
    let bytes = Array(input.dropFirst(1 + 2 * count))
    let decoded: [DecodedField]
    do {
        decoded = try DeclaredDecoder.decode(bytes, fields: fields, characteristic: "fuzz")
    } catch {
        return 0
    }
    guard (try? DeclaredDecoder.decode(bytes, fields: fields, characteristic: "fuzz")) == decoded else {
        fatalError("the same bytes decoded differently")
    }
    let names = decoded.map(\.name)
    guard Set(names).count == names.count else { fatalError("a field published twice: \(names)") }
    for field in decoded { check(field.value, of: fields.first { $0.name == field.name }) }
    return 0
}

private func check(_ value: DeclaredValue, of field: DeclaredField?) {
    switch value {
    case .number(let number): guard number.isFinite else { fatalError("\(number) published") }
    case .list(let values):
        guard field?.repeated == true else { fatalError("a list from a single field") }
        for value in values { check(value, of: nil) }
    default: break
    }
}
