import Testing

@testable import Peripherals

/// The simulator's encoders against CPS 1.1 and the GATT Specification Supplement (3.65 Cycling Power Measurement),
/// byte for byte.
struct CyclingPowerMeasurementTests {
    @Test func powerAloneIsFlagsAndPower() {
        #expect(CyclingPowerMeasurement(power: 250).encoded() == [0x00, 0x00, 0xFA, 0x00])
        #expect(CyclingPowerMeasurement(power: -5).encoded() == [0x00, 0x00, 0xFB, 0xFF], "a signed power")
    }

    @Test func balanceWheelCrankAndEnergyInTheFlagsOrder() {
        let measurement = CyclingPowerMeasurement(
            power: 250, balance: (halfPercent: 100, left: true), wheel: (revolutions: 10_000, eventTime: 2048),
            crank: (revolutions: 42, eventTime: 1024), accumulatedEnergy: 7)
        // Flags: balance (0) and its reference (1), wheel (4), crank (5), energy (11).
        #expect(
            measurement.encoded() == [
                0x33, 0x08, 0xFA, 0x00, 0x64, 0x10, 0x27, 0, 0, 0x00, 0x08, 0x2A, 0x00, 0x00, 0x04, 0x07, 0x00,
            ])
    }

    @Test func theFeatureBits() {
        #expect(
            CyclingPowerFeature.encoded(
                balance: true, wheel: true, crank: true, accumulatedEnergy: true, crankLengthAdjustment: true)
                == [0x8D, 0x10, 0x00, 0x00])
    }

    @Test func controlPointRequestsAndTheirAnswers() {
        #expect(CyclingPowerControlPoint.request([0x01, 0x88, 0x13, 0, 0]) == .setCumulativeValue(5000))
        #expect(CyclingPowerControlPoint.request([0x04, 0x59, 0x01]) == .setCrankLength(halfMillimetres: 345))
        #expect(CyclingPowerControlPoint.request([0x05]) == .requestCrankLength)
        #expect(CyclingPowerControlPoint.request([0x04, 0x59]) == .other(opCode: 0x04), "a short parameter")
        #expect(CyclingPowerControlPoint.response(to: 0x04, .invalidParameter) == [0x20, 0x04, 0x03])
        #expect(
            CyclingPowerControlPoint.response(to: 0x05, .success, value: [0x59, 0x01]) == [
                0x20, 0x05, 0x01, 0x59, 0x01,
            ])
    }
}
