import Testing

@testable import Bridge

struct WarningLimiterTests {
    /// Five lines a minute per kind; the first after a quiet spell says how many were left out.
    @Test func aFloodWritesAFewLinesAndThenSaysHowManyWereLeftOut() {
        let limiter = WarningLimiter(burst: 5, period: .seconds(60))
        let start = ContinuousClock.now
        let written = (0..<100).filter { limiter.admit("oversized", at: start + .milliseconds($0)).write }
        #expect(written.count == 5)
        #expect(limiter.admit("malformed mode", at: start).write, "each kind has its own allowance")
        let later = limiter.admit("oversized", at: start + .seconds(61))
        #expect(later.write && later.suppressed == 95)
        #expect(limiter.admit("oversized", at: start + .seconds(62)).suppressed == 0)
    }
}
