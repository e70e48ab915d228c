import Testing

@testable import Peripherals

/// The simulator's encoders against the GATT Specification Supplement's layouts (3.258 Weight Measurement, 3.259
/// Weight Scale Feature), byte for byte.
struct WeightMeasurementTests {
    @Test func aWeightAloneIsItsFlagsAndTheWeight() {
        // 69.6 kg is 13 920 × 0.005 kg = 0x3660.
        #expect(WeightMeasurement(weight: 13_920).encoded() == [0x00, 0x60, 0x36])
    }

    @Test func everyOptionalPartInTheSupplementsOrder() {
        let measurement = WeightMeasurement(
            weight: 13_920,
            timeStamp: .init(year: 2026, month: 12, day: 3, hours: 21, minutes: 5, seconds: 30), user: 1,
            bmiAndHeight: (bmi: 225, height: 1750))
        #expect(
            measurement.encoded() == [0x0E, 0x60, 0x36, 0xEA, 0x07, 12, 3, 21, 5, 30, 0x01, 0xE1, 0x00, 0xD6, 0x06])
    }

    @Test func imperialUnitsSetBitZero() {
        // 154.50 lb in 0.01 lb, BMI 22.5, 70.0 in in 0.1 in.
        let measurement = WeightMeasurement(imperial: true, weight: 15_450, bmiAndHeight: (bmi: 225, height: 700))
        #expect(measurement.encoded() == [0x09, 0x5A, 0x3C, 0xE1, 0x00, 0xBC, 0x02])
        #expect(WeightMeasurement(weight: 13_920, user: 255).encoded() == [0x04, 0x60, 0x36, 0xFF], "user unknown")
    }

    @Test func theFeatureIsAUInt32OfItsSupportBits() {
        #expect(WeightScaleFeature(timeStamp: true, multipleUsers: false, bmi: true).encoded() == [0x05, 0, 0, 0])
        #expect(WeightScaleFeature(timeStamp: false, multipleUsers: true, bmi: false).encoded() == [0x02, 0, 0, 0])
        #expect(WeightScaleGATT.measurement == "00002a9d-0000-1000-8000-00805f9b34fb")
    }
}
