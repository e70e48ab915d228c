import Testing

@testable import Bridge

/// Home Assistant's birth messages re-announce every config at most once per hold-off, whatever arrives.
struct BirthCoalescerTests {
    private let start = ContinuousClock.now
    private func at(_ seconds: Double) -> ContinuousClock.Instant { start + .milliseconds(Int(seconds * 1000)) }

    @Test func theFirstBirthIsAnsweredAtOnce() {
        var births = BirthCoalescer(holdOff: .seconds(5))
        #expect(births.birth(at: at(0)) == .now)
    }

    @Test func birthsDuringTheHoldOffAreFoldedIntoOneAtItsEnd() {
        var births = BirthCoalescer(holdOff: .seconds(5))
        #expect(births.birth(at: at(0)) == .now)
        #expect(births.birth(at: at(0.1)) == .at(at(5)))
        for tenth in 2..<20 { #expect(births.birth(at: at(Double(tenth) / 10)) == .folded) }
        births.dueAnnounced(at: at(5))
        // The due one starts a hold-off of its own.
        #expect(births.birth(at: at(6)) == .at(at(10)))
        #expect(births.birth(at: at(9.9)) == .folded)
        births.dueAnnounced(at: at(10))
        #expect(births.birth(at: at(15)) == .now, "a birth after a quiet spell is answered at once")
    }

    @Test func aBirthAfterTheHoldOffIsAnsweredAtOnce() {
        var births = BirthCoalescer(holdOff: .seconds(5))
        #expect(births.birth(at: at(0)) == .now)
        #expect(births.birth(at: at(5)) == .now)
        #expect(births.birth(at: at(9.99)) == .at(at(10)))
    }

    /// 20 births in quick succession: one re-announcement now, one at the end of the hold-off.
    @Test func twentyBirthsMakeTwoRounds() {
        var births = BirthCoalescer(holdOff: .seconds(5))
        let decisions = (0..<20).map { births.birth(at: at(Double($0) * 0.3)) }
        #expect(decisions.filter { $0 == .now }.count == 1)
        #expect(decisions.filter { $0 != .now && $0 != .folded }.count == 1)
    }
}
