import Fleet
import Testing

/// Each rule of `OwnershipArbiter`, with exact times under the standard policy: refresh 10 s,
/// lease 30 s, settle 15 s, hysteresis 16 dB, deadband 6 dB, challenge 60 s, dwell 60 s, grace 30 s.
@Suite("Ownership arbiter rules")
struct OwnershipArbiterTests {
    private typealias Event = TestFleet.Event

    /// Steps `gateway` each second in `seconds`, returning the changes with their second.
    private func run(_ gateway: inout TestGateway, _ seconds: ClosedRange<Int64>) -> [Event] {
        var events: [Event] = []
        for second in seconds {
            if let change = gateway.step(at: .seconds(second)).decision.change {
                events.append(Event(second: second, gateway: gateway.name, change: change))
            }
        }
        return events
    }

    /// A gateway that took the device alone at second 45 (term 1) and saw its link up at 46.
    private func loneOwner(rssi: Int = -80, policy: OwnershipPolicy = .standard) -> TestGateway {
        var gateway = TestGateway("gw-a", rssi: rssi, policy: policy)
        _ = run(&gateway, 0...46)
        return gateway
    }

    // MARK: Taking an ownerless device

    @Test("a lone gateway waits a lease then the settle period after starting, then takes the device with term 1")
    func loneGatewayTakes() {
        var gateway = TestGateway("gw-a", rssi: -60)
        #expect(run(&gateway, 0...44).isEmpty)
        let decision = gateway.step(at: .seconds(45)).decision
        #expect(decision.change == .tookOwnership(term: 1))
        #expect(decision.state == .owner)
        #expect(decision.term == 1)
        #expect(decision.action == .connect)
        #expect(decision.publishNow)
        #expect(gateway.step(at: .seconds(46)).decision.action == .none)  // link is up now
    }

    @Test("a gateway with no free slot never takes the device, even alone for an hour")
    func noSlotNeverOwns() {
        var gateway = TestGateway("gw-a", rssi: -40, freeSlots: 0)
        #expect(run(&gateway, 0...3600).isEmpty)
        #expect(gateway.arbiter.state == .candidate)
    }

    @Test("a gateway that does not hear the device never takes it, even alone for an hour")
    func noRSSINeverOwns() {
        var gateway = TestGateway("gw-a", rssi: nil)
        #expect(run(&gateway, 0...3600).isEmpty)
        #expect(gateway.arbiter.state == .candidate)
    }

    @Test("the strongest gateway with a free slot takes the device; a stronger one without a slot does not")
    func strongestWithSlotTakes() {
        var fleet = TestFleet([
            TestGateway("gw-a", rssi: -40, freeSlots: 0),
            TestGateway("gw-b", rssi: -70),
            TestGateway("gw-c", rssi: -60),
        ])
        fleet.run(until: 600)
        #expect(fleet.events == [Event(second: 45, gateway: "gw-c", change: .tookOwnership(term: 1))])
        #expect(fleet.mostOwnersAtOnce == 1)
    }

    @Test("ranks itself by what it published, the numbers the others rank it by")
    func ranksByPublishedClaim() {
        var gateway = TestGateway("gw-a", rssi: -70)
        gateway.step(at: .seconds(0))  // publishes −70
        gateway.rssi = -50  // better now, but not yet published
        var events: [Event] = []
        for second in Int64(0)...60 {
            if second % 10 == 0 {
                gateway.arbiter.receive(
                    TestGateway.claim(from: "gw-b", state: .candidate, rssi: -60, sequence: UInt64(second)),
                    at: .seconds(second)
                )
            }
            if second == 50 { _ = gateway.publish() }
            if let change = gateway.step(at: .seconds(second)).decision.change {
                events.append(Event(second: second, gateway: "gw-a", change: change))
            }
        }
        // Ownerless and settled from 45 on, but ranked behind gw-b until it publishes −50 at 50.
        #expect(events == [Event(second: 50, gateway: "gw-a", change: .tookOwnership(term: 1))])
    }

    @Test("a gateway that has never published never takes the device")
    func unpublishedNeverOwns() {
        var arbiter = OwnershipArbiter(
            gateway: "gw-a", device: TestGateway.device, incarnation: 1, startedAt: .seconds(0))
        arbiter.observe(LocalObservation(rssi: -40, freeSlots: 3, linkUp: false))
        for second in Int64(0)...600 {
            #expect(arbiter.decide(at: .seconds(second)).state == .candidate)
        }
    }

    @Test("without a broker session a gateway takes nothing; once back, it listens a lease and settles first")
    func brokerSessionNeeded() {
        var gateway = TestGateway("gw-a", rssi: -60)
        gateway.brokerConnected = false
        #expect(run(&gateway, 0...600).isEmpty)
        gateway.brokerConnected = true
        // Back at 601: listens until 631, ownerless from then, settled at 646.
        #expect(run(&gateway, 601...700) == [Event(second: 646, gateway: "gw-a", change: .tookOwnership(term: 1))])
    }

    @Test("a short broker outage restarts the wait: what was known before it has gone stale")
    func brokerOutageRestartsWait() {
        var gateway = TestGateway("gw-a", rssi: -60)
        gateway.arbiter.receive(TestGateway.claim(from: "gw-b", state: .owner, term: 1, sequence: 0), at: .seconds(0))
        _ = run(&gateway, 0...40)  // gw-b's claim expired at 30: ownerless from 30, would take at 45
        gateway.brokerConnected = false
        #expect(run(&gateway, 41...42).isEmpty)
        gateway.brokerConnected = true
        #expect(run(&gateway, 43...100) == [Event(second: 88, gateway: "gw-a", change: .tookOwnership(term: 2))])
    }

    @Test("an owner keeps its device while its broker session is down")
    func ownerKeepsDeviceWithoutBroker() {
        var owner = loneOwner()
        owner.brokerConnected = false
        for second in Int64(47)...1000 {
            let decision = owner.step(at: .seconds(second)).decision
            #expect(decision.change == nil)
            #expect(decision.action == .none)
        }
        #expect(owner.arbiter.isOwner)
    }

    // MARK: Leases

    @Test(
        "an owner's claim counts for a lease after its last arrival; then the device is ownerless and taken after the settle period"
    )
    func leaseExpiry() {
        var gateway = TestGateway("gw-a", rssi: -60)
        var events: [Event] = []
        for second in Int64(0)...200 {
            if second <= 100 && second % 10 == 0 {
                let claim = TestGateway.claim(from: "gw-b", state: .owner, term: 4, sequence: UInt64(second))
                #expect(gateway.arbiter.receive(claim, at: .seconds(second)) == .accepted)
            }
            if second == 125 {
                // A repeated old claim (say a retained message redelivered) does not extend the lease.
                let repeated = TestGateway.claim(from: "gw-b", state: .owner, term: 4, sequence: 100)
                #expect(gateway.arbiter.receive(repeated, at: .seconds(second)) == .stale)
            }
            if let change = gateway.step(at: .seconds(second)).decision.change {
                events.append(Event(second: second, gateway: "gw-a", change: change))
            }
        }
        // Last claim at 100 → lease ends at 130 → ownerless from 130 → settle ends at 145.
        #expect(events == [Event(second: 145, gateway: "gw-a", change: .tookOwnership(term: 5))])
    }

    @Test("a challenger never grabs a device whose owner keeps refreshing, however much stronger it is")
    func ownerStays() {
        var challenger = TestGateway("gw-b", rssi: -30)
        for second in Int64(0)...3600 {
            if second % 10 == 0 {
                let claim = TestGateway.claim(from: "gw-a", state: .owner, term: 1, rssi: -95, sequence: UInt64(second))
                challenger.arbiter.receive(claim, at: .seconds(second))
            }
            let decision = challenger.step(at: .seconds(second)).decision
            #expect(decision.state == .candidate)
            #expect(decision.action == .none)
        }
    }

    @Test("a forged claim with the largest incarnation silences the gateway it names for two leases, not for ever")
    func forgedIncarnationFades() {
        var arbiter = OwnershipArbiter(
            gateway: "gw-a", device: TestGateway.device, incarnation: 1, startedAt: .seconds(0))
        func claim(incarnation: UInt64, sequence: UInt64) -> Claim {
            TestGateway.claim(from: "gw-b", state: .owner, term: 3, incarnation: incarnation, sequence: sequence)
        }
        #expect(arbiter.receive(claim(incarnation: 4, sequence: 1), at: .seconds(0)) == .accepted)
        #expect(
            arbiter.receive(claim(incarnation: ClaimCodec.maximumCounter, sequence: 1), at: .seconds(5)) == .accepted)
        // gw-b's real claims, every 10 s, are older than the forgery: dropped until it is two leases old.
        var second: Int64 = 10
        while second < 65 {
            #expect(
                arbiter.receive(claim(incarnation: 4, sequence: UInt64(second)), at: .seconds(second)) == .stale,
                "at \(second) s")
            second += 10
        }
        #expect(arbiter.receive(claim(incarnation: 4, sequence: 65), at: .seconds(65)) == .accepted)
        #expect(arbiter.otherOwners(at: .seconds(66)) == ["gw-b"])
        // From then on the high-water mark is gw-b's own again: a replay of an older claim is stale.
        #expect(arbiter.receive(claim(incarnation: 4, sequence: 64), at: .seconds(70)) == .stale)
    }

    @Test("claims are ordered by (incarnation, sequence) per gateway; own and foreign-device claims are set aside")
    func receipts() {
        var arbiter = OwnershipArbiter(
            gateway: "gw-a", device: TestGateway.device, incarnation: 2, startedAt: .seconds(0))
        func claim(_ gateway: String, incarnation: UInt64, sequence: UInt64, term: UInt64 = 1) -> Claim {
            TestGateway.claim(
                from: gateway, state: .candidate, term: term, incarnation: incarnation, sequence: sequence)
        }
        #expect(arbiter.receive(claim("gw-b", incarnation: 1, sequence: 5), at: .seconds(0)) == .accepted)
        #expect(arbiter.receive(claim("gw-b", incarnation: 1, sequence: 4), at: .seconds(1)) == .stale)
        #expect(arbiter.receive(claim("gw-b", incarnation: 1, sequence: 5), at: .seconds(2)) == .stale)
        #expect(arbiter.receive(claim("gw-b", incarnation: 2, sequence: 0), at: .seconds(3)) == .accepted)
        #expect(arbiter.receive(claim("gw-b", incarnation: 1, sequence: 9), at: .seconds(4)) == .stale)
        #expect(
            arbiter.receive(claim("gw-a", incarnation: 1, sequence: 9, term: 8), at: .seconds(5)) == .fromThisGateway)
        var elsewhere = claim("gw-b", incarnation: 3, sequence: 0, term: 50)
        elsewhere.device = "belt/000000000000"
        #expect(arbiter.receive(elsewhere, at: .seconds(6)) == .otherDevice)
        // The previous life's term counts (terms never go backwards); the other device's does not.
        arbiter.observe(LocalObservation(rssi: -60, freeSlots: 1, linkUp: false))
        #expect(arbiter.decide(at: .seconds(7)).term == 8)
    }

    @Test("a candidate publishes the highest term of the claims it accepted; a stale claim raises nothing")
    func candidatePublishesHighestTerm() {
        var gateway = TestGateway("gw-a", rssi: -60)
        gateway.arbiter.receive(
            TestGateway.claim(from: "gw-b", state: .candidate, term: 3, sequence: 2), at: .seconds(0))
        // Older than gw-b's last (a replay, or a forgery under its name): its term would have counted before.
        #expect(
            gateway.arbiter.receive(
                TestGateway.claim(from: "gw-b", state: .released, term: 7, sequence: 1), at: .seconds(0)) == .stale)
        let (decision, published) = gateway.step(at: .seconds(1))
        #expect(decision.term == 3)
        #expect(published?.term == 3)
        #expect(published?.state == .candidate)
    }

    @Test("a forged claim at the codec's largest term leaves terms every peer can read, and one owner")
    func forgedTermCannotExhaustTerms() throws {
        var fleet = TestFleet([TestGateway("gw-a", rssi: -60), TestGateway("gw-b", rssi: -70)])
        let forged = TestGateway.claim(from: "gw-x", state: .candidate, term: ClaimCodec.maximumCounter, sequence: 1)
        for index in fleet.gateways.indices { fleet.gateways[index].arbiter.receive(forged, at: .seconds(0)) }
        fleet.run(until: 600)
        #expect(
            fleet.events == [
                Event(second: 45, gateway: "gw-a", change: .tookOwnership(term: ClaimCodec.maximumCounter))
            ])
        #expect(fleet.mostOwnersAtOnce == 1)
        // What the owner publishes, every peer decodes: before, it published 2^53 and was dropped as malformed.
        var owner = fleet.gateways[0]
        let claim = owner.arbiter.nextClaim(sequence: 99)
        let decoded = try ClaimCodec.decode(bytes: Array(ClaimCodec.encode(claim).utf8), device: TestGateway.device)
        #expect(decoded.term == ClaimCodec.maximumCounter)
    }

    @Test("an owner's will ends its lease at once: the survivor takes the device at once, not a lease and settle later")
    func willEndsTheOwnersLease() {
        func survivor(will: Bool) -> [Event] {
            var gateway = TestGateway("gw-a", rssi: -60)
            var events: [Event] = []
            for second in Int64(0)...200 {
                if second <= 100, second % 10 == 0 {
                    gateway.arbiter.receive(
                        TestGateway.claim(from: "gw-b", state: .owner, term: 1, sequence: UInt64(second)),
                        at: .seconds(second))
                }
                if will, second == 105 { gateway.arbiter.peerLeft("gw-b", at: .seconds(second)) }
                if let change = gateway.step(at: .seconds(second)).decision.change {
                    events.append(Event(second: second, gateway: "gw-a", change: change))
                }
            }
            return events
        }
        #expect(survivor(will: true) == [Event(second: 105, gateway: "gw-a", change: .tookOwnership(term: 2))])
        #expect(
            survivor(will: false) == [Event(second: 145, gateway: "gw-a", change: .tookOwnership(term: 2))],
            "the lease is the fallback")
    }

    @Test("a will of a gateway that owned nothing, or while this one still listens after its start, hastens nothing")
    func willOfANonOwnerChangesNothing() {
        var gateway = TestGateway("gw-a", rssi: -60)
        gateway.arbiter.receive(TestGateway.claim(from: "gw-b", state: .owner, term: 1, sequence: 1), at: .seconds(0))
        // Within its first lease: it may not have heard every owner yet.
        gateway.arbiter.peerLeft("gw-b", at: .seconds(5))
        gateway.arbiter.receive(TestGateway.claim(from: "gw-c", state: .candidate, sequence: 1), at: .seconds(6))
        gateway.arbiter.peerLeft("gw-c", at: .seconds(7))
        #expect(run(&gateway, 0...44).isEmpty)
        #expect(gateway.step(at: .seconds(45)).decision.change == .tookOwnership(term: 2))
    }

    // MARK: Hand-over

    @Test(
        "the owner hands over only when a candidate is more than the hysteresis stronger for the challenge period",
        arguments: [(16, nil), (17, 110)] as [(Int, Int64?)]
    )
    func hysteresis(margin: Int, expectedRelease: Int64?) {
        var owner = loneOwner(rssi: -80)  // took at 45, so the dwell ends at 105
        var releasedAt: Int64?
        for second in Int64(47)...3600 {
            if second % 10 == 0 {
                let claim = TestGateway.claim(
                    from: "gw-b", state: .candidate, rssi: -80 + margin, sequence: UInt64(second))
                owner.arbiter.receive(claim, at: .seconds(second))
            }
            let decision = owner.step(at: .seconds(second)).decision
            if case .handedOver(to: "gw-b") = decision.change { releasedAt = second }
        }
        // Stronger from 50 on → challenge period ends at 110.
        #expect(releasedAt == expectedRelease)
    }

    @Test("the owner keeps the device for the minimum dwell even against a much stronger candidate")
    func dwell() {
        let policy = OwnershipPolicy(challengePeriod: .seconds(10))
        var owner = loneOwner(rssi: -80, policy: policy)  // took at 45
        var events: [Event] = []
        for second in Int64(47)...200 {
            if second % 10 == 1 {
                let claim = TestGateway.claim(from: "gw-b", state: .candidate, rssi: -50, sequence: UInt64(second))
                owner.arbiter.receive(claim, at: .seconds(second))
            }
            if let change = owner.step(at: .seconds(second)).decision.change {
                events.append(Event(second: second, gateway: "gw-a", change: change))
            }
        }
        // Stronger from 51 on: the challenge is due at 61, the dwell only at 105.
        #expect(events.first == Event(second: 105, gateway: "gw-a", change: .handedOver(to: "gw-b")))
    }

    @Test("a challenge that lapses starts over: only an unbroken challenge period counts")
    func challengeRestarts() {
        var owner = loneOwner(rssi: -80)
        var releasedAt: Int64?
        for second in Int64(47)...2000 {
            if second % 10 == 0 {
                // Until 1000: 40 s at +20 dB, then 10 s at +10 dB, over and over. Then +20 dB for good.
                let margin = second < 1000 && second % 50 >= 40 ? 10 : 20
                let claim = TestGateway.claim(
                    from: "gw-b", state: .candidate, rssi: -80 + margin, sequence: UInt64(second))
                owner.arbiter.receive(claim, at: .seconds(second))
            }
            if case .handedOver = owner.step(at: .seconds(second)).decision.change { releasedAt = second }
        }
        // The last dip is at 990...999; stronger without a break from 1000 → released at 1060.
        #expect(releasedAt == 1060)
    }

    @Test("an owner that does not know its own RSSI hands nothing over")
    func unknownOwnRSSI() {
        var owner = loneOwner(rssi: -80)
        owner.rssi = nil
        for second in Int64(47)...1000 {
            if second % 10 == 0 {
                let claim = TestGateway.claim(from: "gw-b", state: .candidate, rssi: -30, sequence: UInt64(second))
                owner.arbiter.receive(claim, at: .seconds(second))
            }
            #expect(owner.step(at: .seconds(second)).decision.change == nil)
        }
    }

    @Test("a candidate without a free slot does not challenge")
    func challengerWithoutSlot() {
        var owner = loneOwner(rssi: -80)
        for second in Int64(47)...1000 {
            if second % 10 == 0 {
                let claim = TestGateway.claim(
                    from: "gw-b", state: .candidate, rssi: -30, freeSlots: 0, sequence: UInt64(second))
                owner.arbiter.receive(claim, at: .seconds(second))
            }
            #expect(owner.step(at: .seconds(second)).decision.change == nil)
        }
    }

    @Test("hand-over is two-step: the owner disconnects and releases, then the candidate takes with the next term")
    func twoStepHandOver() {
        var fleet = TestFleet([TestGateway("gw-a", rssi: -80), TestGateway("gw-b", rssi: -50)], starts: [0, 100])
        fleet.run(until: 400)
        #expect(
            fleet.events == [
                Event(second: 45, gateway: "gw-a", change: .tookOwnership(term: 1)),
                // gw-b's first claim reaches gw-a after gw-a's step at 100: challenge from 101.
                Event(second: 161, gateway: "gw-a", change: .handedOver(to: "gw-b")),
                // The link closed at once; the release is published only now.
                Event(second: 162, gateway: "gw-a", change: .releaseCompleted),
                Event(second: 177, gateway: "gw-b", change: .tookOwnership(term: 2)),
                Event(second: 178, gateway: "gw-a", change: .becameCandidate),
            ]
        )
        #expect(fleet.mostOwnersAtOnce == 1)
        #expect(fleet["gw-a"].linkUp == false)
        #expect(fleet["gw-b"].linkUp == true)
    }

    @Test("while the old owner's link is still up it keeps publishing owner, so nobody connects yet")
    func releaseWaitsForLink() {
        var owner = loneOwner(rssi: -80)
        owner.followsActions = false
        owner.linkUp = true
        owner.arbiter.receive(TestGateway.claim(from: "gw-b", state: .owner, term: 2, sequence: 0), at: .seconds(47))
        var decision = owner.step(at: .seconds(47)).decision
        #expect(decision.change == .lostConflict(to: "gw-b"))
        for second in Int64(48)...70 {
            decision = owner.step(at: .seconds(second)).decision
            #expect(decision.state == .owner)
            #expect(decision.action == .disconnect)
            #expect(!owner.arbiter.isOwner)
        }
        owner.linkUp = false
        decision = owner.step(at: .seconds(71)).decision
        #expect(decision.change == .releaseCompleted)
        #expect(decision.state == .released)
        #expect(decision.term == 1)
        #expect(decision.publishNow)
    }

    @Test(
        "the gateway that handed over needs hysteresis + deadband to win back; any other gateway only the hysteresis",
        arguments: [true, false]
    )
    func winBack(challengerIsPredecessor: Bool) {
        var fleet = TestFleet(
            [TestGateway("gw-a", rssi: -80), TestGateway("gw-b", rssi: -50), TestGateway("gw-c", rssi: nil)],
            starts: [0, 100, 0]
        )
        fleet.run(until: 300)  // gw-b owns since 177 (see the two-step hand-over)
        let challenger = challengerIsPredecessor ? "gw-a" : "gw-c"
        fleet[challenger].rssi = -30  // 20 dB stronger than gw-b: more than 16, not more than 22
        fleet.run(until: 3600)
        let handOvers = fleet.events(of: "gw-b").filter { if case .handedOver = $0.change { true } else { false } }
        if challengerIsPredecessor {
            #expect(handOvers.isEmpty)
            fleet["gw-a"].rssi = -27  // 23 dB stronger
            fleet.run(until: 3800)
            // gw-a's claim with −27 is published at its refresh at 3600, seen by gw-b at 3600.
            let laterHandOvers = fleet.events(of: "gw-b").filter {
                if case .handedOver = $0.change { true } else { false }
            }
            #expect(laterHandOvers == [Event(second: 3660, gateway: "gw-b", change: .handedOver(to: "gw-a"))])
            #expect(fleet.owners == ["gw-a"])
        } else {
            // gw-c's claim with −30 goes out at once (it became eligible) and counts from 301.
            #expect(handOvers == [Event(second: 361, gateway: "gw-b", change: .handedOver(to: "gw-c"))])
        }
        #expect(fleet.mostOwnersAtOnce == 1)
    }

    // MARK: Conflicts

    @Test(
        "of two owners the higher term wins, then the smaller name; the loser releases at once",
        arguments: [
            ("gw-b", UInt64(2), true),  // higher term wins despite the larger name
            ("gw-0", 1, true),  // same term, smaller name wins
            ("gw-z", 1, false),  // same term, larger name loses
            ("gw-0", 0, false),  // lower term is ignored
        ]
    )
    func conflict(other: String, otherTerm: UInt64, loses: Bool) {
        var owner = loneOwner()  // gw-a, term 1, link up
        owner.arbiter.receive(
            TestGateway.claim(from: other, state: .owner, term: otherTerm, sequence: 0), at: .seconds(47))
        let decision = owner.step(at: .seconds(47)).decision
        if loses {
            #expect(decision.change == .lostConflict(to: other))
            #expect(decision.action == .disconnect)
            let next = owner.step(at: .seconds(48)).decision
            #expect(next.change == .releaseCompleted)
            #expect(next.state == .released)
        } else {
            #expect(decision.change == nil)
            #expect(decision.state == .owner)
        }
    }

    @Test("when a partition heals, the two owners it produced resolve to one without further input")
    func partitionHeals() {
        var fleet = TestFleet([TestGateway("gw-a", rssi: -60), TestGateway("gw-b", rssi: -60)])
        fleet.cut = [[0, 1]]
        fleet.run(until: 100)
        #expect(fleet.owners == ["gw-a", "gw-b"])
        fleet.cut = []
        fleet.run(until: 400)
        #expect(fleet.owners == ["gw-a"])
        #expect(
            fleet.events(of: "gw-b").map(\.change) == [
                .tookOwnership(term: 1), .lostConflict(to: "gw-a"), .releaseCompleted, .becameCandidate,
            ])
        #expect(fleet["gw-b"].linkUp == false)
    }

    @Test("after a partition the side with the higher term keeps the device, whatever the names")
    func partitionHigherTermWins() {
        var fleet = TestFleet([TestGateway("gw-a", rssi: -60), TestGateway("gw-b", rssi: -60)])
        fleet.cut = [[0, 1]]
        fleet["gw-b"].arbiter.receive(
            TestGateway.claim(from: "gw-c", state: .released, term: 5, sequence: 0), at: .seconds(0))
        fleet.run(until: 100)
        fleet.cut = []
        fleet.run(until: 400)
        #expect(fleet.owners == ["gw-b"])
        #expect(fleet.events(of: "gw-a").map(\.change).contains(.lostConflict(to: "gw-b")))
        #expect(fleet["gw-b"].arbiter.term == 6)
    }

    // MARK: Broker failures

    @Test("when the only broker dies, owners keep their devices and nobody takes over, then or after")
    func singleBrokerDies() {
        var fleet = TestFleet([TestGateway("gw-a", rssi: -60), TestGateway("gw-b", rssi: -70)])
        fleet.run(until: 100)  // gw-a owns since 45
        fleet.cut = [[0, 1]]
        fleet["gw-a"].brokerConnected = false
        fleet["gw-b"].brokerConnected = false
        fleet.run(until: 700)
        fleet.cut = []
        fleet["gw-a"].brokerConnected = true
        fleet["gw-b"].brokerConnected = true
        fleet.run(until: 1300)
        #expect(fleet.events == [Event(second: 45, gateway: "gw-a", change: .tookOwnership(term: 1))])
        #expect(fleet.mostOwnersAtOnce == 1)
    }

    @Test("when the owner's broker dies, a gateway on another broker takes over; the old owner gives way on return")
    func ownersBrokerDies() {
        var fleet = TestFleet([TestGateway("gw-a", rssi: -60), TestGateway("gw-b", rssi: -70)])
        fleet.run(until: 100)  // gw-a owns since 45; its refresh at 90 is the last gw-b gets
        fleet.cut = [[0, 1]]
        fleet["gw-a"].brokerConnected = false
        fleet.run(until: 700)
        fleet.cut = []
        fleet["gw-a"].brokerConnected = true
        fleet.run(until: 1300)
        #expect(
            fleet.events == [
                Event(second: 45, gateway: "gw-a", change: .tookOwnership(term: 1)),
                // gw-a's lease at gw-b ends at 120; gw-b takes after settling.
                Event(second: 135, gateway: "gw-b", change: .tookOwnership(term: 2)),
                // Back at 700, gw-a gets gw-b's refresh after its own step and gives way at 701.
                Event(second: 701, gateway: "gw-a", change: .lostConflict(to: "gw-b")),
                Event(second: 702, gateway: "gw-a", change: .releaseCompleted),
                Event(second: 703, gateway: "gw-a", change: .becameCandidate),
            ]
        )
        #expect(fleet.owners == ["gw-b"])
    }

    // MARK: Link grace

    @Test("an owner whose link drops keeps the device and reconnects within the grace period")
    func graceKeepsOwner() {
        var owner = loneOwner()
        owner.followsActions = false
        owner.linkUp = true
        for second in Int64(47)...400 {
            owner.linkUp = !(60..<89).contains(second)  // down 29 s: less than the 30 s grace
            let decision = owner.step(at: .seconds(second)).decision
            #expect(decision.change == nil)
            #expect(decision.action == (owner.linkUp ? .none : .connect))
        }
        #expect(owner.arbiter.isOwner)
    }

    @Test("an owner whose link stays down for the grace period releases; alone, it tries again after settling")
    func graceExpires() {
        var owner = loneOwner()
        owner.followsActions = false
        owner.linkUp = false
        var events: [Event] = []
        for second in Int64(60)...120 {
            if let change = owner.step(at: .seconds(second)).decision.change {
                events.append(Event(second: second, gateway: "gw-a", change: change))
            }
            if second == 90 { #expect(owner.arbiter.state == .released) }
        }
        // Down from 60 → released at 90 → ownerless from 91 → taken again at 106 with the next term.
        #expect(
            events == [
                Event(second: 90, gateway: "gw-a", change: .linkLost),
                Event(second: 106, gateway: "gw-a", change: .tookOwnership(term: 2)),
            ]
        )
    }

    @Test("an owner whose first connection never comes up releases after the grace period")
    func firstConnectFails() {
        var gateway = TestGateway("gw-a", rssi: -60)
        gateway.followsActions = false
        let events = run(&gateway, 0...100)
        #expect(
            events == [
                Event(second: 45, gateway: "gw-a", change: .tookOwnership(term: 1)),
                Event(second: 75, gateway: "gw-a", change: .linkLost),
                Event(second: 91, gateway: "gw-a", change: .tookOwnership(term: 2)),
            ]
        )
    }

    @Test("a released gateway becomes a candidate once another owner is in view")
    func releasedBecomesCandidate() {
        var gateway = TestGateway("gw-a", rssi: -60)
        gateway.followsActions = false
        _ = run(&gateway, 0...75)  // took at 45, released at 75
        gateway.arbiter.receive(TestGateway.claim(from: "gw-b", state: .owner, term: 2, sequence: 0), at: .seconds(76))
        let decision = gateway.step(at: .seconds(76)).decision
        #expect(decision.change == .becameCandidate)
        #expect(decision.state == .candidate)
        #expect(decision.term == 2)
    }

    @Test("a candidate that finds its link up (say after a restart) disconnects")
    func candidateDisconnects() {
        var gateway = TestGateway("gw-a", rssi: -60)
        gateway.linkUp = true
        #expect(gateway.step(at: .seconds(0)).decision.action == .disconnect)
        #expect(gateway.step(at: .seconds(1)).decision.action == .none)
    }
}
