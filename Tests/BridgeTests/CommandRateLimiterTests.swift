import Testing

@testable import Bridge

struct CommandRateLimiterTests {
    @Test func aBurstThenTheSteadyRatePerDevice() {
        var limiter = CommandRateLimiter(perSecond: 2, burst: 3)
        let start = ContinuousClock.now
        let burst = (0..<4).map { _ in limiter.admit("belt/a", at: start) }
        #expect(burst == [true, true, true, false])
        let other = limiter.admit("belt/b", at: start)
        #expect(other, "another device has its own bucket")
        let half = limiter.admit("belt/a", at: start + .milliseconds(500))  // one token back at 2/s
        let again = limiter.admit("belt/a", at: start + .milliseconds(500))
        #expect(half)
        #expect(!again)
    }
}
