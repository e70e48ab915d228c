import Testing

@testable import Peripherals

/// The simulator's encoders against RSCS 1.0 and the GATT Specification Supplement (3.187 RSC Measurement), byte for
/// byte.
struct RSCMeasurementTests {
    @Test func speedAndCadenceAlone() {
        // 1.5 m/s is 384/256 = 0x0180; walking.
        #expect(RSCMeasurement(speed: 384, cadence: 80, running: false).encoded() == [0x00, 0x80, 0x01, 0x50])
    }

    @Test func strideAndDistanceWhileRunning() {
        let measurement = RSCMeasurement(
            speed: 768, cadence: 170, strideLength: 150, totalDistance: 12_345, running: true)
        #expect(measurement.encoded() == [0x07, 0x00, 0x03, 0xAA, 0x96, 0x00, 0x39, 0x30, 0x00, 0x00])
    }

    @Test func theFeatureBits() {
        #expect(RSCFeature.encoded(strideLength: true, totalDistance: true, walkingOrRunning: true) == [0x07, 0x00])
        #expect(RSCFeature.encoded(strideLength: false, totalDistance: true, walkingOrRunning: false) == [0x02, 0x00])
    }
}
