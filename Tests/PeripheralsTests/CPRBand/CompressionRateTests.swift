import TestSupport
import Testing

@testable import Peripherals

/// The rate over the rolling window, kept incrementally, gives what counting the window's peaks afresh
/// gives, whatever the order, spacing and number of peaks.
struct CompressionRateTests {
    /// The rate as a pass over every recorded time computes it.
    private struct Reference {
        let windowSeconds: Double
        var times: [Double] = []

        mutating func record(_ time: Double) {
            times.append(time)
            let horizon = (times.max() ?? time) - windowSeconds
            times.removeAll { $0 <= horizon }
        }

        func ratePerMinute(at now: Double) -> Double? {
            let inWindow = times.filter { $0 > now - windowSeconds && $0 <= now }
            guard let first = inWindow.min(), let last = inWindow.max(), last > first else { return nil }
            return Double(inWindow.count - 1) / (last - first) * 60
        }
    }

    @Test(arguments: [UInt64(1), 2, 3, 4])
    func theIncrementalRateIsTheRateOfAFreshCount(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let window = [0.5, 2, 10][Int(seed) % 3]
        var statistics = CompressionStatistics(windowSeconds: window)
        var reference = Reference(windowSeconds: window)
        var clock = 0.0
        for step in 0..<3_000 {
            // Mostly in order, at 200/s and slower; now and then a late peak or a long pause.
            clock += [0.005, 0.01, 0.3, 3][Int(random.next() % 4 == 0 ? random.next() % 4 : 0)]
            let late = random.next() % 50 == 0
            let time = late ? clock - Double(random.next() % 1000) / 1000 : clock
            statistics.record(millimetres: 55, at: time)
            reference.record(time)
            let now = step % 7 == 0 ? clock + 0.2 : clock
            #expect(statistics.ratePerMinute(at: now) == reference.ratePerMinute(at: now), "step \(step)")
        }
    }
}
