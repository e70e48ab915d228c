import Fleet
import TestSupport
import Testing

@Suite("Candidate ranking and owner precedence")
struct RankingTests {
    private func claim(_ gateway: String, _ state: ClaimState = .candidate, rssi: Int?, slots: Int = 2) -> Claim {
        TestGateway.claim(from: gateway, state: state, rssi: rssi, freeSlots: slots, sequence: 0)
    }

    @Test("the stronger RSSI ranks first")
    func strongerFirst() {
        let first = CandidateRanking.first(among: [claim("gw-a", rssi: -70), claim("gw-b", rssi: -60)])
        #expect(first?.gateway == "gw-b")
    }

    @Test("equal RSSI: the smaller gateway name ranks first, whatever the input order")
    func tieBreak() {
        let claims = [claim("gw-b", rssi: -60), claim("gw-a", rssi: -60), claim("gw-c", rssi: -60)]
        #expect(CandidateRanking.first(among: claims)?.gateway == "gw-a")
        #expect(CandidateRanking.first(among: claims.reversed())?.gateway == "gw-a")
    }

    @Test("a gateway without a free slot or without RSSI is not eligible, however strong")
    func ineligible() {
        #expect(
            CandidateRanking.first(among: [claim("gw-a", rssi: -30, slots: 0), claim("gw-b", rssi: -90)])?.gateway
                == "gw-b")
        #expect(CandidateRanking.first(among: [claim("gw-a", rssi: nil), claim("gw-b", rssi: -90)])?.gateway == "gw-b")
        #expect(CandidateRanking.first(among: [claim("gw-a", rssi: nil), claim("gw-b", rssi: -50, slots: 0)]) == nil)
        #expect(!CandidateRanking.isEligible(claim("gw-a", .owner, rssi: -50)))
    }

    @Test("a gateway that just released ranks after every candidate, but still before nobody")
    func releasedLast() {
        let released = claim("gw-a", .released, rssi: -40)
        #expect(CandidateRanking.first(among: [released, claim("gw-b", rssi: -90)])?.gateway == "gw-b")
        #expect(CandidateRanking.first(among: [released, claim("gw-b", rssi: -90, slots: 0)])?.gateway == "gw-a")
    }

    @Test("the order is total and consistent on random claims (seeded)")
    func totalOrder() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let claims = (0..<4).map { index in
                claim(
                    "gw-\(index)",
                    random.element(of: [.candidate, .released, .owner]),
                    rssi: random.chance(0.2) ? nil : random.integer(in: -80...(-60)),
                    slots: random.integer(in: 0...2)
                )
            }
            for a in claims {
                #expect(!CandidateRanking.ranksBefore(a, a))
                for b in claims where a.gateway != b.gateway {
                    #expect(CandidateRanking.ranksBefore(a, b) != CandidateRanking.ranksBefore(b, a))
                }
            }
            // The first is the same whichever order the claims come in.
            #expect(CandidateRanking.first(among: claims) == CandidateRanking.first(among: claims.reversed()))
        }
    }

    @Test("between two owners the higher term prevails, then the smaller name; exactly one prevails")
    func precedence() {
        #expect(OwnerPrecedence.prevails(term: 5, gateway: "gw-z", over: 4, "gw-a"))
        #expect(!OwnerPrecedence.prevails(term: 4, gateway: "gw-a", over: 5, "gw-z"))
        #expect(OwnerPrecedence.prevails(term: 4, gateway: "gw-a", over: 4, "gw-b"))
        #expect(!OwnerPrecedence.prevails(term: 4, gateway: "gw-b", over: 4, "gw-a"))
    }
}
