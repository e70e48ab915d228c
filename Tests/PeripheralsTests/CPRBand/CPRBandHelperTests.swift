import Foundation
import Testing

@testable import Peripherals

@Suite struct CPRBandHelperTests {
    @Test func movingAverageOfFiveTruncatesTowardZero() {
        var average = CPRBandAngleMovingAverage()
        #expect(average.sampleCount == 5)
        #expect(average.value == nil)
        let outputs = [10, 20, 25, 30, 31, 40, -90].map { average.add($0) }
        // means: 10, 15, 18.33, 21.25, 23.2, 29.2 (20…40), 7.2 (25, 30, 31, 40, −90)
        #expect(outputs == [10, 15, 18, 21, 23, 29, 7])
        #expect(average.samples == [25, 30, 31, 40, -90])
    }

    @Test func negativeMeansTruncateTowardZero() {
        var average = CPRBandAngleMovingAverage(sampleCount: 2)
        average.add(-3)
        #expect(average.add(-4) == -3)  // −3.5 → −3, like Swift's Int(Double)
        #expect(average.mean == -3.5)
        average.reset()
        #expect(average.value == nil)
    }

    @Test(arguments: [0, -4, 1])
    func windowOfAtLeastOne(size: Int) {
        var average = CPRBandAngleMovingAverage(sampleCount: size)
        #expect(average.sampleCount == 1)
        average.add(7)
        #expect(average.add(-9) == -9)
    }

    @Test(arguments: [
        (CPRBandTXPowerLevel.level0, -18.0), (.level1, -15), (.level2, -12), (.level3, -9), (.level4, -6),
        (.level5, -2), (.level6, 0), (.level7, 5),
    ])
    func txLevelTable(level: CPRBandTXPowerLevel, dBm: Double) {
        #expect(level.dBm == dBm)
    }

    @Test func busDistanceModelExamples() throws {
        let model = CPRBandDistanceModel.busLibrary
        // The notes' example: level 0 (−18 dBm) at −60 dBm is about 126 m.
        let far = try #require(model.distanceMetres(rssi: -60, txPowerLevel: 0))
        #expect(abs(far - 125.89) < 0.01)
        #expect(model.distanceMetres(rssi: 0, txPowerLevel: 6) == 1)
        #expect(model.distanceMetres(rssi: -15, txPowerLevel: 7) == 10)
        #expect(model.distanceMetres(rssi: -60, txPowerLevel: nil) == nil)
        #expect(model.distanceMetres(rssi: -60, txPowerLevel: 8) == nil)
        #expect(model.distanceMetres(rssi: -60, txPowerLevel: -4) == nil)
    }

    /// The bridge's choice: the TX power a band advertises (dBm, BlueZ `TxPower`) is the reference when
    /// there is one, as in Bus; the configured reference otherwise.
    @Test func anAdvertisedTxPowerIsTheReferenceWhenThereIsOne() throws {
        let model = CPRBandDistanceModel(referencePowerDBm: -59, exponent: 2)
        #expect(model.distanceMetres(rssi: -24, advertisedTxPowerDBm: -4) == 10)
        #expect(model.distanceMetres(rssi: -59, advertisedTxPowerDBm: nil) == 1)
        #expect(CPRBandDistanceModel.busLibrary.distanceMetres(rssi: -60, advertisedTxPowerDBm: nil) == nil)
    }

    @Test func calibratedReferenceAndExponent() throws {
        let model = CPRBandDistanceModel(referencePowerDBm: -59, exponent: 2.5)
        #expect(model.distanceMetres(rssi: -59, txPowerLevel: nil) == 1)
        #expect(model.distanceMetres(rssi: -84, txPowerLevel: 0) == 10)  // reference wins over the TX level
        #expect(
            CPRBandDistanceModel(referencePowerDBm: -59, exponent: 0).distanceMetres(rssi: -60, txPowerLevel: 0) == nil)
        #expect(model.distanceMetres(rssi: .nan, txPowerLevel: nil) == nil)
    }

    /// An exponent so small that the power overflows gives no distance, never `inf` (issue #56: a subnormal
    /// exponent was published as `inf` on `cpr/<id>/distance`).
    @Test func aDistanceThatOverflowsIsNone() throws {
        let tiny = CPRBandDistanceModel(referencePowerDBm: -59, exponent: try #require(Double("1e-320")))
        #expect(tiny.distanceMetres(rssi: -60, txPowerLevel: nil) == nil)
        #expect(tiny.distanceMetres(rssi: -60, advertisedTxPowerDBm: -4) == nil)
        // The smallest exponent the settings take, at the widest gap an RSSI can make, is still a number.
        let widest = CPRBandDistanceModel(referencePowerDBm: 20, exponent: 1)
        #expect(widest.distanceMetres(rssi: -127, txPowerLevel: nil)?.isFinite == true)
    }

    @Test func rateOverTheRollingWindow() throws {
        var statistics = CompressionStatistics(windowSeconds: 10)
        for index in 0..<40 { statistics.record(millimetres: 55, at: Double(index) * 0.5) }  // 120/min for 20 s
        #expect(statistics.ratePerMinute(at: 19.5) == 120)
        for index in 0..<10 { statistics.record(millimetres: 55, at: 20 + Double(index)) }  // then 60/min
        // Window (19.5, 29.5]: peaks at 20…29, one per second.
        #expect(statistics.ratePerMinute(at: 29.5) == 60)
        // Window (20, 30]: still only the 1 Hz peaks 21…29.
        #expect(statistics.ratePerMinute(at: 30) == 60)
        #expect(statistics.ratePerMinute(at: 38.5) == nil)  // window (28.5, 38.5] holds only the peak at 29
    }

    @Test func noRateWithFewerThanTwoPeaksInTheWindow() {
        var statistics = CompressionStatistics(windowSeconds: 5)
        #expect(statistics.ratePerMinute(at: 0) == nil)
        statistics.record(millimetres: 50, at: 100)
        #expect(statistics.ratePerMinute(at: 100) == nil)
        statistics.record(millimetres: 50, at: 100.75)
        #expect(statistics.ratePerMinute(at: 101) == 80)
        #expect(statistics.ratePerMinute(at: 105.5) == nil)  // 100 fell out of (100.5, 105.5]; 100.75 is alone
        #expect(statistics.ratePerMinute(at: 200) == nil)
    }

    @Test func inRangeShareCountsBothBounds() throws {
        var statistics = CompressionStatistics(range: try CPRBandDepthRange(minMillimetres: 50, maxMillimetres: 60))
        #expect(statistics.inRangeShare == nil)
        for (index, depth) in [0x2D, 0x32, 0x34, 0x3C, 0x3D, 0x37, 0x30, 0x3A].enumerated() {
            statistics.record(CPRBandDepth(millimetres: UInt8(depth)), at: Double(index) * 0.5)
        }
        #expect(statistics.count == 8)
        #expect(statistics.inRangeCount == 5)  // 50, 52, 60, 55, 58
        #expect(statistics.tooShallowCount == 2)  // 45, 48
        #expect(statistics.tooDeepCount == 1)  // 61
        #expect(statistics.inRangeShare == 0.625)
    }

    @Test func sessionSummary() throws {
        var statistics = CompressionStatistics()
        #expect(
            statistics.summary
                == CompressionSessionSummary(
                    count: 0, inRangeCount: 0, tooShallowCount: 0, tooDeepCount: 0, inRangeShare: nil,
                    meanDepthCentimetres: nil, minimumDepthCentimetres: nil, maximumDepthCentimetres: nil,
                    durationSeconds: 0, averageRatePerMinute: nil))
        for (index, depth) in [40, 50, 60, 70].enumerated() {
            statistics.record(millimetres: depth, at: 10 + Double(index))
        }
        let summary = statistics.summary
        #expect(summary.count == 4)
        #expect(summary.inRangeCount == 2)
        #expect(summary.inRangeShare == 0.5)
        #expect(summary.meanDepthCentimetres == 5.5)
        #expect(summary.minimumDepthCentimetres == 4.0)
        #expect(summary.maximumDepthCentimetres == 7.0)
        #expect(summary.durationSeconds == 3)
        #expect(summary.averageRatePerMinute == 60)
        let json = try JSONEncoder().encode(summary)
        #expect(try JSONDecoder().decode(CompressionSessionSummary.self, from: json) == summary)
    }
}
