import Testing

@testable import Peripherals

/// activ5.md §7: press > 20 N, release < 5 N, 5 s window from the last sample above 20 N.
@Suite struct DoubleSqueezeDetectorTests {
    typealias Sample = (newtons: Double, time: Double, events: [DoubleSqueezeDetector.Event])

    /// Feeds samples and checks the events of each one.
    @discardableResult
    static func run(_ samples: [Sample], detector: DoubleSqueezeDetector = DoubleSqueezeDetector())
        -> DoubleSqueezeDetector
    {
        var detector = detector
        for sample in samples {
            let events = detector.feed(newtons: sample.newtons, at: sample.time)
            #expect(events == sample.events, "at t = \(sample.time) s, \(sample.newtons) N")
        }
        return detector
    }

    @Test func defaultsAreTwentyFiveFive() {
        let thresholds = DoubleSqueezeDetector().thresholds
        #expect(thresholds.pressedNewtons == 20)
        #expect(thresholds.releasedNewtons == 5)
        #expect(thresholds.windowSeconds == 5)
    }

    @Test func cleanDoubleSqueeze() {
        let detector = Self.run([
            (0, 0.0, []), (12, 0.1, []), (25, 0.2, [.squeezed]), (40, 0.3, []), (10, 0.4, []),
            (2, 0.5, [.released]), (0, 0.8, []), (30, 1.0, [.squeezed]), (1, 1.5, [.released, .doubleSqueeze]),
            (0, 1.6, []),
        ])
        #expect(detector.phase == .initial)
        #expect(detector.windowDeadline == nil)
        #expect(!detector.isSqueezed)
    }

    @Test func squeezesTooFarApartAreTwoSingles() {
        let detector = Self.run([
            (25, 0, [.squeezed]), (0, 0.5, [.released]),
            // The window ran out at 5.0 s: this is a new first press.
            (25, 5.5, [.squeezed]), (0, 6, [.released]),
        ])
        #expect(detector.phase == .firstPressCompleted)
    }

    @Test func aSecondPressJustInsideTheWindowCounts() {
        Self.run([
            (25, 0, [.squeezed]), (0, 1, [.released]), (25, 4.99, [.squeezed]), (0, 5.5, [.released, .doubleSqueeze]),
        ])
    }

    @Test func aSecondPressExactlyAtTheDeadlineIsTooLate() {
        Self.run([(25, 0, [.squeezed]), (0, 1, [.released]), (25, 5, [.squeezed]), (0, 5.5, [.released])])
    }

    @Test func holdingRestartsTheWindowFromTheLastPressSample() {
        // Held above 20 N from 0 to 8 s: the window counts from 8 s, not from 0 s.
        let held: [Sample] = (1...8).map { (25, Double($0), []) }
        Self.run(
            [(25, 0, [.squeezed])] + held + [
                (0, 8.5, [.released]), (25, 12.9, [.squeezed]), (0, 13, [.released, .doubleSqueeze]),
            ])
    }

    @Test func squeezeThatNeverReleasesRaisesOneEvent() {
        let held: [Sample] = (1...100).map { (25 + Double($0 % 7), Double($0) * 0.1, []) }
        let detector = Self.run([(25, 0, [.squeezed])] + held)
        #expect(detector.phase == .firstPressed)
        #expect(detector.isSqueezed)
    }

    @Test func releaseAfterTheWindowRanOutIsNotReported() {
        // The vendor's quirk: the window resets the phase to initial, where a release fires no onDepressed.
        // The squeezed flag stays set, so the next press is not reported either; events keep alternating.
        let detector = Self.run([
            (25, 0, [.squeezed]), (10, 1, []), (10, 5.1, []), (0, 6, []), (25, 7, []), (0, 7.5, [.released]),
        ])
        #expect(detector.phase == .firstPressCompleted)
        #expect(!detector.isSqueezed)
    }

    @Test func secondReleaseAfterTheWindowIsNoDoubleSqueeze() {
        Self.run([(25, 0, [.squeezed]), (0, 1, [.released]), (25, 2, [.squeezed]), (12, 3, []), (0, 7.1, [])])
    }

    @Test func noiseBetweenAndAtTheThresholdsDoesNothing() {
        let noise: [Sample] = [5, 20, 12.5, 19.999, 5.001, 20, 5].enumerated().map {
            ($0.element, Double($0.offset), [])
        }
        let detector = Self.run(noise + [(4.9, 10, []), (0, 11, []), (.nan, 12, [])])
        #expect(detector.phase == .initial)
        #expect(detector.windowDeadline == nil)
    }

    @Test func customThresholds() {
        let detector = DoubleSqueezeDetector(
            thresholds: DoubleSqueezeDetector.Thresholds(pressedNewtons: 10, releasedNewtons: 2, windowSeconds: 1))
        Self.run(
            [(11, 0, [.squeezed]), (3, 0.2, []), (1, 0.3, [.released]), (11, 1.2, [.squeezed]), (1, 1.3, [.released])],
            detector: detector)
        Self.run(
            [
                (11, 0, [.squeezed]), (1, 0.3, [.released]), (11, 0.9, [.squeezed]),
                (1, 1.3, [.released, .doubleSqueeze]),
            ],
            detector: detector)
    }

    @Test func advanceLetsTheWindowRunOutWithoutASample() {
        var detector = DoubleSqueezeDetector()
        _ = detector.feed(newtons: 25, at: 0)
        _ = detector.feed(newtons: 0, at: 1)
        detector.advance(to: 4.9)
        #expect(detector.phase == .firstPressCompleted)
        detector.advance(to: 5)
        #expect(detector.phase == .initial)
        #expect(detector.windowDeadline == nil)
    }

    @Test func detectorsFedFromDecodedFramesSeeNewtons() throws {
        // IS19/IS is 20.6 N after scaling: a press, although the raw value is below 20.
        var detector = DoubleSqueezeDetector()
        let frame = try Activ5Notification.decode(
            characteristic: Activ5TestBytes.legacyMessages, bytes: Activ5TestBytes.frame("IS19/IS"))
        #expect(detector.feed(newtons: try #require(frame.newtons), at: 0) == [.squeezed])
    }
}
