import Testing

@testable import Peripherals

/// The generic decoder against golden vectors written from the Bluetooth SIG's GATT Specification Supplement (GSS
/// v11): bytes in, fields out, each field laid out as the Supplement lays out the characteristic.
struct DeclaredDecoderTests {
    private func field(
        _ name: String, _ type: String, if condition: (String, Int, Bool)? = nil, repeated: Bool = false,
        scale: String = "1", unit: String? = nil, published: Bool = true, bits: [DeclaredField.BitField] = [],
        enumeration: [Int64: String] = [:]
    ) -> DeclaredField {
        var field = DeclaredField(name: name, type: DeclaredFieldType(name: type)!)
        field.conditions = condition.map { [DeclaredField.Condition(field: $0.0, bit: $0.1, set: $0.2)] } ?? []
        field.repeated = repeated
        field.scale = DecimalScale(scale)!
        field.unit = unit
        field.published = published
        field.bits = bits
        field.enumeration = enumeration
        return field
    }

    private func decode(_ bytes: [UInt8], _ fields: [DeclaredField]) throws -> [String: DeclaredValue] {
        let decoded = try DeclaredDecoder.decode(bytes, fields: fields, characteristic: "test")
        return Dictionary(uniqueKeysWithValues: decoded.map { ($0.name, $0.value) })
    }

    /// GSS 3.113 Heart Rate Measurement: flags (bit 0: uint16 rate, bits 1-2 contact, bit 3 energy, bit 4 RR).
    var heartRate: [DeclaredField] {
        [
            field(
                "flags", "u8", published: false,
                bits: [.init(name: "contact", offset: 1, width: 2, enumeration: [2: "lost", 3: "detected"])]),
            field("bpm", "u8", if: ("flags", 0, false)),
            field("bpm", "u16", if: ("flags", 0, true)),
            field("energy", "u16", if: ("flags", 3, true), unit: "kJ"),
            field("rr", "u16", if: ("flags", 4, true), repeated: true, scale: "0.0009765625", unit: "s"),
        ]
    }

    @Test func aHeartRateMeasurementByItsFlags() throws {
        // uint16 rate 300, contact detected, 16 kJ, RR 1024 and 512 (1 s and 0.5 s).
        #expect(
            try decode([0x1F, 0x2C, 0x01, 0x10, 0x00, 0x00, 0x04, 0x00, 0x02], heartRate) == [
                "contact": .text("detected"), "bpm": .integer(300), "energy": .integer(16),
                "rr": .list([.number(1), .number(0.5)]),
            ])
        // uint8 rate 72, no contact support, nothing else.
        #expect(try decode([0x00, 0x48], heartRate) == ["contact": .integer(0), "bpm": .integer(72)])
        // RR flagged and none there: "one or more", so the flags lie, and the value is refused as the written family
        // refuses it.
        #expect(throws: DeclaredDecodeError(characteristic: "test", reason: .tooShort(field: "rr", needed: 2, left: 0)))
        {
            try decode([0x10, 0x48], heartRate)
        }
    }

    /// `decimals`: RR intervals of 1/1024 s as milliseconds with one decimal, rounded half away from zero in integer
    /// arithmetic (853/1024 s is 833.0078… ms, 827 is 807.617…, 3 is 2.9296…, 5 × 0.9765625 = 4.8828125); and a float
    /// rounded to two.
    @Test func decimalsRoundTheScaledValue() throws {
        var rr = field("rr", "u16", repeated: true, scale: "0.9765625")
        rr.decimals = 1
        #expect(
            try decode([0x55, 0x03, 0x3B, 0x03, 0x03, 0x00, 0x05, 0x00, 0xFF, 0xFF], [rr])["rr"]
                == .list([.number(833), .number(807.6), .number(2.9), .number(4.9), .number(63999)]))
        var celsius = field("celsius", "s16", scale: "0.005")
        celsius.decimals = 2
        // −3 × 0.005 = −0.015: half away from zero, −0.02.
        #expect(try decode([0xFD, 0xFF], [celsius])["celsius"] == .number(-0.02))
        var ratio = field("ratio", "f32")
        ratio.decimals = 2
        #expect(
            try decode(withUnsafeBytes(of: Float(0.125).bitPattern.littleEndian, Array.init), [ratio])["ratio"]
                == .number(0.13))
    }

    /// `unlisted`: a value `values` does not name, as the prefix and its number (Heart Rate's reserved locations).
    @Test func anUnlistedValueIsThePrefixAndItsNumber() throws {
        var location = field("location", "u8", enumeration: [1: "chest"])
        location.unlisted = "reserved_"
        #expect(try decode([1], [location])["location"] == .text("chest"))
        #expect(try decode([9], [location])["location"] == .text("reserved_9"))
    }

    /// A field's or a bit field's own `retain` goes with what it publishes; a bit field without one takes its field's.
    @Test func aFieldsOwnRetainGoesWithItsValue() throws {
        var flags = field(
            "flags", "u8", published: false,
            bits: [.init(name: "contact", offset: 1, width: 2), .init(name: "low", offset: 0, retain: false)])
        flags.retain = true
        var energy = field("energy", "u16")
        energy.retain = true
        let decoded = try DeclaredDecoder.decode(
            [0x06, 0x10, 0x00, 0x48], fields: [flags, energy, field("bpm", "u8")], characteristic: "test")
        #expect(decoded.map(\.name) == ["contact", "low", "energy", "bpm"])
        #expect(decoded.map(\.retain) == [true, false, true, nil])
    }

    /// GSS 3.58 CSC Measurement: bit 0 wheel revolutions (uint32) and last wheel event (uint16, 1/1024 s); bit 1
    /// crank revolutions (uint16) and last crank event (uint16, 1/1024 s).
    @Test func aCSCMeasurementWithWheelAndCrank() throws {
        let fields = [
            field("flags", "u8", published: false),
            field("wheel_revolutions", "u32", if: ("flags", 0, true)),
            field("wheel_event_time", "u16", if: ("flags", 0, true), scale: "0.0009765625", unit: "s"),
            field("crank_revolutions", "u16", if: ("flags", 1, true)),
            field("crank_event_time", "u16", if: ("flags", 1, true), scale: "0.0009765625", unit: "s"),
        ]
        #expect(
            try decode([0x03, 0x34, 0x12, 0x00, 0x00, 0x00, 0x04, 0x10, 0x00, 0x00, 0x08], fields) == [
                "wheel_revolutions": .integer(4660), "wheel_event_time": .number(1),
                "crank_revolutions": .integer(16), "crank_event_time": .number(2),
            ])
        #expect(
            try decode([0x02, 0x10, 0x00, 0x00, 0x08], fields) == [
                "crank_revolutions": .integer(16), "crank_event_time": .number(2),
            ])
    }

    /// GSS 3.65 Cycling Power Measurement: flags (uint16), instantaneous power (sint16, W), pedal power balance if
    /// bit 0 (uint8, 1/2 %).
    @Test func aCyclingPowerMeasurementWithItsBalance() throws {
        let fields = [
            field("flags", "u16", published: false),
            field("power", "s16", unit: "W"),
            field("balance", "u8", if: ("flags", 0, true), scale: "0.5", unit: "%"),
        ]
        #expect(
            try decode([0x01, 0x00, 0xC8, 0x00, 0x64], fields) == ["power": .integer(200), "balance": .number(50)])
        #expect(try decode([0x00, 0x00, 0xFB, 0xFF], fields) == ["power": .integer(-5)])
    }

    /// GSS 3.204 Temperature (sint16, 0.01 °C), 3.120 Humidity (uint16, 0.01 %), 3.181 Pressure (uint32, 0.1 Pa).
    @Test func environmentalSensingValuesScaleWithoutBinaryNoise() throws {
        #expect(
            try decode([0x66, 0x08], [field("temperature", "s16", scale: "0.01")]) == ["temperature": .number(21.5)])
        #expect(
            try decode([0x9A, 0xFF], [field("temperature", "s16", scale: "0.01")]) == ["temperature": .number(-1.02)])
        #expect(try decode([0xB3, 0x15], [field("humidity", "u16", scale: "0.01")]) == ["humidity": .number(55.55)])
        #expect(
            try decode([0x02, 0x76, 0x0F, 0x00], [field("pressure", "u32", scale: "0.1")]) == [
                "pressure": .number(101325)
            ])
    }

    /// GSS 3.258 Weight Measurement: flags bit 0 (0: SI, weight uint16 at 0.005 kg; 1: imperial, at 0.01 lb).
    @Test func aWeightMeasurementInEitherUnit() throws {
        let fields = [
            field("flags", "u8", published: false),
            field("weight", "u16", if: ("flags", 0, false), scale: "0.005", unit: "kg"),
            field("weight_lb", "u16", if: ("flags", 0, true), scale: "0.01", unit: "lb"),
        ]
        #expect(try decode([0x00, 0x60, 0x36], fields) == ["weight": .number(69.6)])
        #expect(try decode([0x01, 0x5A, 0x3C], fields) == ["weight_lb": .number(154.5)])
    }

    /// IEEE 11073-20601 SFLOAT and FLOAT, their special values too (GSS 2.3).
    @Test func medicalFloatsAndTheirSpecialValues() throws {
        let short: [(UInt16, IEEE11073Float.Decoded)] = [
            (0x0072, .value(114)), (0xF072, .value(11.4)), (0xFFFF, .value(-0.1)), (0x1005, .value(50)),
            (0x07FF, .special("NaN")), (0x0800, .special("NRes")), (0x07FE, .special("+INFINITY")),
            (0x0802, .special("-INFINITY")), (0x0801, .special("reserved")),
        ]
        for (raw, expected) in short { #expect(IEEE11073Float.short(raw) == expected, "\(raw)") }
        let long: [(UInt32, IEEE11073Float.Decoded)] = [
            (0xFF00_016C, .value(36.4)), (0x0000_0001, .value(1)), (0xFDFF_FFFF, .value(-0.001)),
            (0x007F_FFFF, .special("NaN")), (0x0080_0000, .special("NRes")), (0x007F_FFFE, .special("+INFINITY")),
            (0x0080_0002, .special("-INFINITY")), (0x0080_0001, .special("reserved")),
        ]
        for (raw, expected) in long { #expect(IEEE11073Float.long(raw) == expected, "\(raw)") }
        // GSS 3.252 Temperature Measurement's value: a FLOAT, little-endian.
        #expect(
            try decode([0x6C, 0x01, 0x00, 0xFF], [field("temperature", "float")]) == ["temperature": .number(36.4)])
        #expect(try decode([0xFF, 0x07], [field("glucose", "sfloat")]) == ["glucose": .special("NaN")])
    }

    @Test func integersOfAnyWidthEitherByteOrder() throws {
        #expect(try decode([0xFF, 0xFF, 0xFF], [field("v", "s24")]) == ["v": .integer(-1)])
        #expect(try decode([0x01, 0x02, 0x03], [field("v", "u24")]) == ["v": .integer(0x030201)])
        #expect(try decode([0x01, 0x02, 0x03], [field("v", "u24be")]) == ["v": .integer(0x010203)])
        #expect(try decode([0x80, 0x00], [field("v", "s16be")]) == ["v": .integer(-32768)])
        #expect(
            try decode(Array(repeating: 0xFF, count: 8), [field("v", "u64")]) == ["v": .unsignedInteger(.max)])
        #expect(try decode([0x00, 0x00, 0xC0, 0x3F], [field("v", "f32")]) == ["v": .number(1.5)])
        #expect(try decode([0x00, 0x00, 0xC0, 0x7F], [field("v", "f32")]) == ["v": .special("NaN")])
        #expect(
            try decode([0x03], [field("v", "u8", enumeration: [1: "chest", 3: "finger"])]) == ["v": .text("finger")])
        #expect(try decode([0x07], [field("v", "u8", enumeration: [1: "chest"])]) == ["v": .integer(7)], "unknown")
        #expect(try decode(Array("Belt\0\0".utf8), [field("name", "utf8")]) == ["name": .text("Belt")])
    }

    /// Bytes the declaration does not explain are refused, with why.
    @Test func whatTheDeclarationDoesNotExplainIsRefused() {
        let reasons: [([UInt8], [DeclaredField], DeclaredDecodeReason)] = [
            ([0x01], [field("v", "u16")], .tooShort(field: "v", needed: 2, left: 1)),
            ([0x01, 0x02], [field("v", "u8")], .trailingBytes(1)),
            ([0x10, 0x48, 0x00], heartRate, .partialRepeat(field: "rr", left: 1)),
            ([0xC3, 0x28], [field("name", "utf8")], .notUTF8(field: "name")),
            (Array(repeating: 0, count: 513), [field("v", "u8", repeated: true)], .tooLong(maximum: 512, actual: 513)),
        ]
        for (bytes, fields, reason) in reasons {
            #expect(throws: DeclaredDecodeError(characteristic: "test", reason: reason)) {
                try DeclaredDecoder.decode(bytes, fields: fields, characteristic: "test")
            }
        }
    }

    @Test func typeNamesAndScalesAreReadStrictly() {
        #expect(DeclaredFieldType(name: "u16be") == .unsigned(bytes: 2, bigEndian: true))
        #expect(DeclaredFieldType(name: "float") == .medfloat)
        for refused in ["u12", "u72", "u8be", "sfloatbe", "int16", "", "u"] {
            #expect(DeclaredFieldType(name: refused) == nil, "\(refused)")
        }
        #expect(DecimalScale("0.005") == DecimalScale(multiplier: 5, exponent: -3))
        #expect(DecimalScale("-1.5") == DecimalScale(multiplier: -15, exponent: -1))
        for refused in ["1e3", "", ".", "0x10", "1.2.3", "+1", String(repeating: "9", count: 19)] {
            #expect(DecimalScale(refused) == nil, "\(refused)")
        }
    }
}
