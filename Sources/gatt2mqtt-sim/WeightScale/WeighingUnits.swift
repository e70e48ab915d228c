import Peripherals

/// How the simulated scale reports a weighing: its units, time stamp, user and height, from the command line; a
/// weight in grams becomes a `WeightMeasurement` in the resolution the specification gives those units.
struct WeighingUnits: Sendable {
    /// The heaviest weighing either unit carries in its uint16: 65 535 × 0.01 lb.
    static let maximumGrams = 297_257

    var imperial = false
    var timeStamp: WeightMeasurement.DateTime?
    var user: UInt8?
    var heightMillimetres: Int?

    /// SI: 0.005 kg (5 g) and 0.001 m; imperial: 0.01 lb (4.5359237 g) and 0.1 in (2.54 mm); BMI in 0.1 kg/m²
    /// (grams × 10 000 / mm², rounded).
    func measurement(grams: Int) -> WeightMeasurement {
        let weight = imperial ? Self.rounded(Double(grams) / 4.535_923_7) : UInt16(clamping: (grams + 2) / 5)
        let bmiAndHeight = heightMillimetres.map { millimetres in
            let bmi = UInt16(clamping: (grams * 10_000 + millimetres * millimetres / 2) / (millimetres * millimetres))
            let height = imperial ? Self.rounded(Double(millimetres) / 2.54) : UInt16(clamping: millimetres)
            return (bmi: bmi, height: height)
        }
        return WeightMeasurement(
            imperial: imperial, weight: weight, timeStamp: timeStamp, user: user, bmiAndHeight: bmiAndHeight)
    }

    /// `2026-12-03T21:05:30` → its Date Time; nil for anything else.
    static func dateTime(_ text: String) -> WeightMeasurement.DateTime? {
        let parts = text.split(whereSeparator: { $0 == "-" || $0 == "T" || $0 == ":" }).map { Int($0) }
        guard parts.count == 6, case let values = parts.compactMap({ $0 }), values.count == 6,
            (1582...9999).contains(values[0]), (1...12).contains(values[1]), (1...31).contains(values[2]),
            (0...23).contains(values[3]), (0...59).contains(values[4]), (0...59).contains(values[5])
        else { return nil }
        return WeightMeasurement.DateTime(
            year: UInt16(values[0]), month: UInt8(values[1]), day: UInt8(values[2]), hours: UInt8(values[3]),
            minutes: UInt8(values[4]), seconds: UInt8(values[5]))
    }

    private static func rounded(_ value: Double) -> UInt16 { UInt16(clamping: Int(value.rounded())) }
}
