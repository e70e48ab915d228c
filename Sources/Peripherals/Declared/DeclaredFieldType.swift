/// How one field of a declared characteristic is laid out in its bytes: the formats of the Bluetooth SIG's GATT
/// Specification Supplement (its `uint8` … `uint64`, `sint8` … `sint64`, IEEE 754 floats, the medical profiles' IEEE
/// 11073-20601 SFLOAT and FLOAT, UTF-8 strings). Multi-byte numbers are little-endian, as the Supplement's are,
/// unless a declaration says big-endian (a vendor's own characteristic).
public enum DeclaredFieldType: Sendable, Equatable {
    /// An unsigned integer of `bytes` bytes (1 to 8).
    case unsigned(bytes: Int, bigEndian: Bool)
    /// A two's complement integer of `bytes` bytes (1 to 8).
    case signed(bytes: Int, bigEndian: Bool)
    /// IEEE 754 binary32.
    case float32(bigEndian: Bool)
    /// IEEE 754 binary64.
    case float64(bigEndian: Bool)
    /// IEEE 11073-20601 SFLOAT: a 4-bit exponent and a 12-bit mantissa, both signed, base 10.
    case sfloat
    /// IEEE 11073-20601 FLOAT: an 8-bit exponent and a 24-bit mantissa, both signed, base 10.
    case medfloat
    /// UTF-8 text to the end of the value.
    case utf8

    /// Its name in a declaration (`u16`, `s24be`, `f32`, `sfloat`, `float`, `utf8`) → the type; nil for none.
    public init?(name: String) {
        let bigEndian = name.hasSuffix("be")
        let base = bigEndian ? String(name.dropLast(2)) : name
        switch base {
        case "f32": self = .float32(bigEndian: bigEndian)
        case "f64": self = .float64(bigEndian: bigEndian)
        case "sfloat" where !bigEndian: self = .sfloat
        case "float" where !bigEndian: self = .medfloat
        case "utf8" where !bigEndian: self = .utf8
        default:
            guard let kind = base.first, kind == "u" || kind == "s", let bits = Int(base.dropFirst()),
                bits % 8 == 0, (8...64).contains(bits), !(bits == 8 && bigEndian)
            else { return nil }
            self =
                kind == "u"
                ? .unsigned(bytes: bits / 8, bigEndian: bigEndian) : .signed(bytes: bits / 8, bigEndian: bigEndian)
        }
    }

    /// Every name `init(name:)` takes, for a refusal's message.
    public static let names = "u8 to u64 and s8 to s64 in steps of 8 (be: big-endian), f32, f64, sfloat, float, utf8"

    /// Bytes it takes; nil for text, which takes the rest.
    public var size: Int? {
        switch self {
        case .unsigned(let bytes, _), .signed(let bytes, _): bytes
        case .float32, .medfloat: 4
        case .float64: 8
        case .sfloat: 2
        case .utf8: nil
        }
    }

    /// Whether its value is an integer (which a flag or a bit field may be read from).
    public var isInteger: Bool {
        switch self {
        case .unsigned, .signed: true
        default: false
        }
    }

    /// Whether it is an IEEE 754 float (`f32`, `f64`).
    public var isIEEE754: Bool {
        switch self {
        case .float32, .float64: true
        default: false
        }
    }
}
