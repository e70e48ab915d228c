import Testing

@testable import Bridge

/// Issue #46, item 6: a gateway listens to the claims of the devices it hears, one subscription each, and to every
/// claim only while it answers for devices nobody owns; what it stops listening to its arbiters forget.
@Suite struct ClaimInterestTests {
    private let start = ContinuousClock.now
    private func at(_ seconds: Int) -> ContinuousClock.Instant { start + .seconds(seconds) }
    private func interest(limit: Int = 10) -> ClaimInterest { ClaimInterest(linger: .seconds(30), limit: limit) }

    @Test func aHeardDeviceIsSubscribedToOnceAndDroppedALeaseAfterItWasLastHeard() {
        var interest = interest()
        let first = interest.turn(heard: ["belt/aa", "cpr/bb"], owned: { _ in false }, wholeFleet: false, at: at(0))
        #expect(first.subscribe == [.device("belt/aa"), .device("cpr/bb")])
        #expect(first.unsubscribe.isEmpty && first.forget.isEmpty)
        #expect(interest.listens(to: "belt/aa") && !interest.listens(to: "a5/cc"))
        // Heard again, or missing from a round within the lease: nothing changes.
        #expect(interest.turn(heard: ["belt/aa"], owned: { _ in false }, wholeFleet: false, at: at(20)) == .init())
        let gone = interest.turn(heard: ["belt/aa"], owned: { _ in false }, wholeFleet: false, at: at(30))
        #expect(gone.unsubscribe == [.device("cpr/bb")])
        #expect(gone.forget == ["cpr/bb"])
        #expect(!interest.listens(to: "cpr/bb"))
    }

    @Test func anOwnedDeviceStaysSubscribedHoweverLongItIsUnheard() {
        var interest = interest()
        _ = interest.turn(heard: ["belt/aa"], owned: { _ in true }, wholeFleet: false, at: at(0))
        #expect(interest.turn(heard: [], owned: { _ in true }, wholeFleet: false, at: at(300)) == .init())
        #expect(interest.listens(to: "belt/aa"))
        let released = interest.turn(heard: [], owned: { _ in false }, wholeFleet: false, at: at(301))
        #expect(released.unsubscribe == [.device("belt/aa")] && released.forget == ["belt/aa"])
    }

    /// The answerer subscribes to every claim before it drops its own, and back: no claim falls between the two.
    @Test func theAnswererListensToEveryClaimInsteadAndForgetsTheUnheardWhenItStops() {
        var interest = interest()
        _ = interest.turn(heard: ["belt/aa"], owned: { _ in false }, wholeFleet: false, at: at(0))
        let answering = interest.turn(heard: ["belt/aa"], owned: { _ in false }, wholeFleet: true, at: at(1))
        #expect(answering.subscribe == [.wholeFleet] && answering.unsubscribe == [.device("belt/aa")])
        #expect(interest.listens(to: "a5/never-heard"))
        #expect(!interest.knowsWholeFleet(for: .seconds(15), at: at(15)))
        #expect(interest.knowsWholeFleet(for: .seconds(15), at: at(16)))
        // Unheard for a lease while every claim comes: the arbiter stays current, so nothing is forgotten.
        let quiet = interest.turn(heard: [], owned: { _ in false }, wholeFleet: true, at: at(40))
        #expect(quiet == .init())
        let stopped = interest.turn(heard: ["cpr/bb"], owned: { _ in false }, wholeFleet: false, at: at(41))
        #expect(stopped.subscribe == [.device("cpr/bb")] && stopped.unsubscribe == [.wholeFleet])
        #expect(stopped.forgetUnheard)
        #expect(interest.devices == ["cpr/bb"])
        #expect(!interest.knowsWholeFleet(for: .zero, at: at(41)))
        #expect(!interest.knowsClaims(on: "belt/aa", for: .seconds(15), at: at(60)), "no longer listened to")
    }

    /// A device just heard is subscribed to, but its owner's next claim is up to a refresh away: its claims are known
    /// only once they have been listened to for the settle period, as a device heard or with every claim.
    @Test func aDevicesClaimsAreKnownOnlyOnceListenedToForTheSettlePeriod() {
        var interest = interest()
        let settle = Duration.seconds(15)
        _ = interest.turn(heard: ["belt/aa"], owned: { _ in false }, wholeFleet: false, at: at(0))
        #expect(!interest.knowsClaims(on: "belt/aa", for: settle, at: at(14)))
        #expect(interest.knowsClaims(on: "belt/aa", for: settle, at: at(15)))
        _ = interest.turn(heard: ["belt/aa", "cpr/bb"], owned: { _ in false }, wholeFleet: false, at: at(20))
        #expect(!interest.knowsClaims(on: "cpr/bb", for: settle, at: at(34)), "heard later, listened to later")
        #expect(!interest.knowsClaims(on: "a5/cc", for: settle, at: at(34)), "never heard")
        // With every claim coming for the settle period, every device's are known, heard or not.
        _ = interest.turn(heard: ["belt/aa"], owned: { _ in false }, wholeFleet: true, at: at(21))
        #expect(interest.knowsClaims(on: "a5/cc", for: settle, at: at(36)))
    }

    /// Advertisements must not grow the broker's subscriptions without bound: past the limit a new device is not
    /// listened to (so never taken), while the ones already heard stay.
    @Test func devicesBeyondTheLimitAreNotListenedTo() {
        var interest = interest(limit: 2)
        let change = interest.turn(heard: ["a/1", "a/2", "a/3"], owned: { _ in false }, wholeFleet: false, at: at(0))
        #expect(change.subscribe.count == 2)
        #expect(["a/1", "a/2", "a/3"].filter(interest.listens(to:)).count == 2)
        _ = interest.turn(heard: interest.devices, owned: { _ in false }, wholeFleet: false, at: at(10))
        #expect(interest.devices.count == 2)
    }
}
