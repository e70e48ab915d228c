import Testing

@testable import WebUI

/// Failed logins per source: free at first, then refused for doubling windows, forgotten after a quiet while, in
/// a table of bounded size. Time is passed in, so nothing here sleeps.
struct LoginThrottleTests {
    let start = ContinuousClock.now
    let attacker = SourceAddress("192.0.2.66")
    let owner = SourceAddress("192.0.2.10")

    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test func theFirstFailuresAreFreeThenEachDoublesTheWindowUpToTheCap() {
        var throttle = LoginThrottle()
        for failure in 1...5 {
            #expect(throttle.verdict(for: attacker, at: at(0)) == .check, "failure \(failure) is free")
            _ = throttle.failed(attacker, at: at(0))
        }
        #expect(throttle.verdict(for: attacker, at: at(0)) == .check, "five failures are still free")
        var now = 0.0
        for expected in [1, 2, 4, 8, 16, 30, 30] {
            _ = throttle.failed(attacker, at: at(now))
            #expect(throttle.verdict(for: attacker, at: at(now)) == .refuse(retryAfter: .seconds(expected)))
            #expect(
                throttle.verdict(for: attacker, at: at(now + Double(expected) - 0.001)) != .check,
                "refused until the window ends")
            now += Double(expected)
            #expect(throttle.verdict(for: attacker, at: at(now)) == .check, "checked again once it has")
        }
    }

    @Test func anotherSourceIsCheckedAtOnceWhileOneIsRefused() {
        var throttle = LoginThrottle()
        for _ in 1...20 { _ = throttle.failed(attacker, at: at(0)) }
        #expect(throttle.verdict(for: attacker, at: at(0)) != .check)
        #expect(throttle.verdict(for: owner, at: at(0)) == .check)
    }

    @Test func aLoginOrAQuietPeriodStartsTheSourceAfresh() {
        var throttle = LoginThrottle()
        for _ in 1...8 { _ = throttle.failed(attacker, at: at(0)) }
        throttle.succeeded(attacker)
        #expect(throttle.verdict(for: attacker, at: at(0)) == .check)
        for _ in 1...5 { _ = throttle.failed(attacker, at: at(0)) }
        #expect(throttle.verdict(for: attacker, at: at(0)) == .check, "the count started again from nothing")

        for _ in 1...8 { _ = throttle.failed(attacker, at: at(0)) }
        let quiet = throttle.policy.forgetAfter / .seconds(1)
        _ = throttle.failed(attacker, at: at(quiet))
        #expect(
            throttle.verdict(for: attacker, at: at(quiet)) == .check,
            "after a quiet period the next failure is the first")
    }

    @Test func theTableKeepsItsSizeAndDropsTheSourceThatFailedLongestAgo() {
        var policy = LoginThrottle.Policy()
        policy.capacity = 4
        var throttle = LoginThrottle(policy: policy)
        for _ in 1...10 { _ = throttle.failed(attacker, at: at(0)) }
        for index in 1...10 { _ = throttle.failed(SourceAddress("198.51.100.\(index)"), at: at(1 + Double(index))) }
        #expect(throttle.count == 4)
        #expect(throttle.verdict(for: attacker, at: at(12)) == .check, "the oldest source made room")
    }

    @Test func refusalsAreTheirOwnAnswerAndDoNotLengthenTheWindow() {
        var throttle = LoginThrottle()
        for _ in 1...6 { _ = throttle.failed(attacker, at: at(0)) }
        for _ in 1...1000 {
            #expect(throttle.verdict(for: attacker, at: at(0.5)) == .refuse(retryAfter: .milliseconds(500)))
        }
        #expect(throttle.verdict(for: attacker, at: at(1)) == .check)
    }

    @Test func failuresAreLoggedOncePerSourcePerIntervalWithWhatWasMissed() {
        var throttle = LoginThrottle()
        let first = throttle.failed(attacker, at: at(0))
        #expect(first == LoginThrottle.LogLine(source: attacker, failures: 1, sinceLastLine: 1, penalty: nil))
        for second in 1...4 { #expect(throttle.failed(attacker, at: at(Double(second))) == nil) }
        let refusing = throttle.failed(attacker, at: at(5))
        #expect(
            refusing == LoginThrottle.LogLine(source: attacker, failures: 6, sinceLastLine: 5, penalty: .seconds(1)),
            "refusals start")
        for second in 6...9 { #expect(throttle.failed(attacker, at: at(Double(second))) == nil) }
        _ = throttle.verdict(for: attacker, at: at(9.5))
        let next = throttle.failed(attacker, at: at(65))
        #expect(
            next?.failures == 11 && next?.sinceLastLine == 6,
            "four failures and one refusal since the last line, and this one")
        #expect(next?.penalty == .seconds(30))
        #expect(throttle.failed(owner, at: at(65)) != nil, "another source has its own line")
    }

    @Test func manySourcesTogetherGetAFewLinesAMinute() {
        var throttle = LoginThrottle()
        let lines = (1...200).compactMap { throttle.failed(SourceAddress("203.0.113.\($0)"), at: at(0)) }
        #expect(lines.count == throttle.policy.logLinesPerInterval)
        #expect(throttle.failed(SourceAddress("203.0.113.201"), at: at(61)) != nil, "a new minute, new lines")
    }

    @Test func theSourceIsEscapedForTheLog() {
        #expect(SourceAddress("a\nb\u{1b}[31m\\é").description == #"a\u{a}b\u{1b}[31m\u{5c}\u{e9}"#)
    }

    @Test func retryAfterRoundsUp() {
        #expect(FailedLogins.seconds(.milliseconds(1)) == 1)
        #expect(FailedLogins.seconds(.seconds(2)) == 2)
        #expect(FailedLogins.seconds(.milliseconds(2001)) == 3)
    }
}
