import Testing

@testable import Peripherals

/// The simulator's encoders against FTMS 1.0 and the GATT Specification Supplement (3.124 Indoor Bike Data), byte for
/// byte.
struct IndoorBikeDataTests {
    @Test func speedAloneClearsMoreData() {
        // 30.00 km/h: 3000 = 0x0BB8.
        #expect(IndoorBikeData(speed: 3000).encoded() == [0x00, 0x00, 0xB8, 0x0B])
        #expect(IndoorBikeData(speed: nil, power: 200).encoded() == [0x41, 0x00, 0xC8, 0x00], "more data, power only")
    }

    @Test func everyFieldInTheFlagsOrder() {
        let data = IndoorBikeData(
            speed: 3000, cadence: 180, totalDistance: 0x01_0203, resistanceLevel: -2, power: 250, heartRate: 140,
            elapsedTime: 600)
        // Flags: cadence (bit 2), distance (4), resistance (5), power (6), heart rate (9), elapsed time (11).
        #expect(
            data.encoded() == [
                0x74, 0x0A, 0xB8, 0x0B, 0xB4, 0x00, 0x03, 0x02, 0x01, 0xFE, 0xFF, 0xFA, 0x00, 0x8C, 0x58, 0x02,
            ])
    }

    @Test func theFeatureIsTwoUInt32s() {
        let feature = FitnessMachineFeature.encoded(
            cadence: true, totalDistance: true, resistanceLevel: true, heartRate: false, elapsedTime: true,
            power: true, resistanceTarget: true, powerTarget: true)
        #expect(feature == [0x86, 0x50, 0x00, 0x00, 0x0C, 0x00, 0x00, 0x00])
    }

    @Test func controlPointRequestsAndTheirAnswer() {
        #expect(FitnessMachineControlPoint.request([0x00]) == .requestControl)
        #expect(FitnessMachineControlPoint.request([0x05, 0xFA, 0x00]) == .setTargetPower(watts: 250))
        #expect(FitnessMachineControlPoint.request([0x05, 0x38, 0xFF]) == .setTargetPower(watts: -200))
        #expect(FitnessMachineControlPoint.request([0x04, 0x7D]) == .setTargetResistance(tenths: 125))
        #expect(FitnessMachineControlPoint.request([0x08, 0x01]) == .stopOrPause(1))
        #expect(FitnessMachineControlPoint.request([0x05, 0xFA]) == .other(opCode: 0x05), "a short parameter")
        #expect(FitnessMachineControlPoint.request([]) == .other(opCode: 0))
        #expect(FitnessMachineControlPoint.response(to: 0x05, .controlNotPermitted) == [0x80, 0x05, 0x05])
    }
}
