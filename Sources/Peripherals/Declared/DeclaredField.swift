/// One field of a declared characteristic's value, in the order the bytes hold them: how it is laid out, when it is
/// there at all (a flag bit of an earlier field, as in the SIG's Heart Rate, Cycling Power and CSC measurements),
/// whether it repeats to the end (RR intervals), and how its number becomes the published one.
public struct DeclaredField: Sendable, Equatable {
    public var name: String
    public var type: DeclaredFieldType
    /// Each must hold for the field to be there (Weight Scale's height: flagged, and in the unit a second flag
    /// says); none: always there.
    public var conditions: [Condition] = []
    /// Repeated to the end of the value, as a list of one or more (the bytes left must be a whole number of fields,
    /// at least one: the SIG's "one or more" RR intervals).
    public var repeated = false
    /// Published value = raw × scale + offset (the Supplement's "M × 10^d + b"); an integer stays one while both are
    /// their neutral values.
    public var scale = DecimalScale.one
    public var offset = 0.0
    /// Digits after the decimal point of the published number (rounded half away from zero); nil: as many as the
    /// scaled value has (Heart Rate's RR intervals: milliseconds with one decimal).
    public var decimals: Int?
    public var unit: String?
    /// Raw value → its name (a sensor location, a control point's result code).
    public var enumeration: [Int64: String] = [:]
    /// A value `enumeration` does not name is published as this prefix and its number (`reserved_9`); nil: as its
    /// number.
    public var unlisted: String?
    /// Named bits or runs of bits of an integer field (a flags field's meanings), each published on its own.
    public var bits: [BitField] = []
    /// False: read (a flags field others depend on) but not published.
    public var published = true
    /// Retained or not, where the characteristic publishes each field on its own leaf; nil: as the characteristic
    /// (Heart Rate's contact and energy are state within a stream).
    public var retain: Bool?
    /// Its Home Assistant entity as declared; nil: as the gateway derives it.
    public var homeAssistant: DeclaredEntity?

    public init(name: String, type: DeclaredFieldType) {
        self.name = name
        self.type = type
    }

    /// A field is there when bit `bit` of the earlier integer field `field` is `set` (or clear).
    public struct Condition: Sendable, Equatable {
        public var field: String
        public var bit: Int
        public var set: Bool

        public init(field: String, bit: Int, set: Bool) {
            self.field = field
            self.bit = bit
            self.set = set
        }
    }

    /// `width` bits from bit `offset` (0: the least significant), read as an unsigned number, or a name.
    public struct BitField: Sendable, Equatable {
        public var name: String
        public var offset: Int
        public var width: Int
        public var enumeration: [Int64: String]
        /// Retained or not; nil: as the field that holds it.
        public var retain: Bool?
        /// Its Home Assistant entity as declared; nil: as the gateway derives it.
        public var homeAssistant: DeclaredEntity?

        public init(
            name: String, offset: Int, width: Int = 1, enumeration: [Int64: String] = [:], retain: Bool? = nil
        ) {
            self.name = name
            self.offset = offset
            self.width = width
            self.enumeration = enumeration
            self.retain = retain
        }

        /// Its value in the field's raw value `raw`: its name for the number, where it has one; else a flag (one bit)
        /// or the number.
        public func value(in raw: UInt64) -> DeclaredValue {
            let mask: UInt64 = width >= 64 ? .max : (1 << UInt64(width)) - 1
            let part = raw >> UInt64(offset) & mask
            if let name = enumeration[Int64(part)] { return .text(name) }
            return width == 1 ? .flag(part == 1) : .integer(Int64(part))
        }
    }
}
