/// One field of a declared characteristic's value, in the order the bytes hold them: how it is laid out, when it is
/// there at all (a flag bit of an earlier field, as in the SIG's Heart Rate, Cycling Power and CSC measurements),
/// whether it repeats to the end (RR intervals), and how its number becomes the published one.
public struct DeclaredField: Sendable, Equatable {
    public var name: String
    public var type: DeclaredFieldType
    /// Each must hold for the field to be there (Weight Scale's height: flagged, and in the unit a second flag
    /// says); none: always there.
    public var conditions: [Condition] = []
    /// Repeated to the end of the value, as a list (the bytes left must be a whole number of fields).
    public var repeated = false
    /// Published value = raw × scale + offset (the Supplement's "M × 10^d + b"); an integer stays one while both are
    /// their neutral values.
    public var scale = DecimalScale.one
    public var offset = 0.0
    public var unit: String?
    /// Raw value → its name (a sensor location, a control point's result code).
    public var enumeration: [Int64: String] = [:]
    /// Named bits or runs of bits of an integer field (a flags field's meanings), each published on its own.
    public var bits: [BitField] = []
    /// False: read (a flags field others depend on) but not published.
    public var published = true

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

        public init(name: String, offset: Int, width: Int = 1, enumeration: [Int64: String] = [:]) {
            self.name = name
            self.offset = offset
            self.width = width
            self.enumeration = enumeration
        }
    }
}
