/// The Bluetooth SIG's Weight Scale service (0x181D, WSS 1.0) and its values as the GATT Specification Supplement
/// lays them out (3.258 Weight Measurement, 3.259 Weight Scale Feature), encoded from the specification alone for
/// the simulator, so that the shipped declaration that decodes them is checked against an independent encoder
/// (issue #59).
public enum WeightScaleGATT {
    public static let service = BluetoothUUID.expand(0x181D)
    public static let measurement = BluetoothUUID.expand(0x2A9D)
    public static let feature = BluetoothUUID.expand(0x2A9E)
}

/// One Weight Measurement: a flags byte (bit 0 imperial units, bit 1 time stamp present, bit 2 user id present, bit 3
/// BMI and height present), the weight (uint16: 0.005 kg, or 0.01 lb in imperial units), then the time stamp (a Date
/// Time: year uint16, month, day, hours, minutes, seconds), the user id (uint8, 255 unknown), the BMI (uint16, 0.1
/// kg/m²) and the height (uint16: 0.001 m, or 0.1 in), each only when its flag is set; little-endian.
public struct WeightMeasurement: Sendable, Equatable {
    /// A Date Time (GSS 3.71) as the measurement carries it: a year of 0 or a month or day of 0 means "not known".
    public struct DateTime: Sendable, Equatable {
        public var year: UInt16
        public var month, day, hours, minutes, seconds: UInt8

        public init(year: UInt16, month: UInt8, day: UInt8, hours: UInt8, minutes: UInt8, seconds: UInt8) {
            (self.year, self.month, self.day) = (year, month, day)
            (self.hours, self.minutes, self.seconds) = (hours, minutes, seconds)
        }

        var encoded: [UInt8] { year.littleEndianBytes + [month, day, hours, minutes, seconds] }
    }

    /// In imperial units the weight counts 0.01 lb and the height 0.1 in; in SI 0.005 kg and 0.001 m.
    public var imperial: Bool
    /// The weight in the unit's resolution.
    public var weight: UInt16
    public var timeStamp: DateTime?
    public var user: UInt8?
    /// The BMI in 0.1 kg/m² and the height in the unit's resolution, always together.
    public var bmiAndHeight: (bmi: UInt16, height: UInt16)?

    public init(
        imperial: Bool = false, weight: UInt16, timeStamp: DateTime? = nil, user: UInt8? = nil,
        bmiAndHeight: (bmi: UInt16, height: UInt16)? = nil
    ) {
        self.imperial = imperial
        self.weight = weight
        self.timeStamp = timeStamp
        self.user = user
        self.bmiAndHeight = bmiAndHeight
    }

    public static func == (lhs: WeightMeasurement, rhs: WeightMeasurement) -> Bool {
        lhs.imperial == rhs.imperial && lhs.weight == rhs.weight && lhs.timeStamp == rhs.timeStamp
            && lhs.user == rhs.user && lhs.bmiAndHeight?.bmi == rhs.bmiAndHeight?.bmi
            && lhs.bmiAndHeight?.height == rhs.bmiAndHeight?.height
    }

    public func encoded() -> [UInt8] {
        let flags: UInt8 =
            (imperial ? 0x01 : 0) | (timeStamp == nil ? 0 : 0x02) | (user == nil ? 0 : 0x04)
            | (bmiAndHeight == nil ? 0 : 0x08)
        var bytes = [flags] + weight.littleEndianBytes
        if let timeStamp { bytes += timeStamp.encoded }
        if let user { bytes.append(user) }
        if let bmiAndHeight { bytes += bmiAndHeight.bmi.littleEndianBytes + bmiAndHeight.height.littleEndianBytes }
        return bytes
    }
}

/// Weight Scale Feature (uint32): bit 0 time stamp supported, bit 1 multiple users supported, bit 2 BMI supported;
/// bits 3-6 the weight's resolution and 7-9 the height's, left 0 ("not specified"), as a scale that reports in the
/// measurement's own resolution does.
public struct WeightScaleFeature: Sendable, Equatable {
    public var timeStamp: Bool
    public var multipleUsers: Bool
    public var bmi: Bool

    public init(timeStamp: Bool, multipleUsers: Bool, bmi: Bool) {
        (self.timeStamp, self.multipleUsers, self.bmi) = (timeStamp, multipleUsers, bmi)
    }

    public func encoded() -> [UInt8] {
        UInt32((timeStamp ? 1 : 0) | (multipleUsers ? 2 : 0) | (bmi ? 4 : 0)).littleEndianBytes
    }
}
