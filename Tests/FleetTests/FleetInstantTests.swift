import Fleet
import Testing

@Suite("Fleet instant")
struct FleetInstantTests {
    @Test("adds durations and measures the time between instants")
    func arithmetic() {
        let start = FleetInstant.seconds(10)
        #expect(start + .milliseconds(1500) == FleetInstant(nanoseconds: 11_500_000_000))
        #expect(FleetInstant.seconds(12) - start == .seconds(2))
        #expect(start - FleetInstant.seconds(12) == .seconds(-2))
    }

    @Test("clamps at the ends of the range instead of trapping")
    func clamps() {
        let late = FleetInstant(nanoseconds: .max - 1)
        #expect(late + .seconds(10) == FleetInstant(nanoseconds: .max))
        #expect(FleetInstant(nanoseconds: .min) + .seconds(-1) == FleetInstant(nanoseconds: .min))
        #expect(late - FleetInstant(nanoseconds: .min) == .nanoseconds(Int64.max))
        #expect(FleetInstant.seconds(1) + .seconds(Int64.max) == FleetInstant(nanoseconds: .max))
    }

    @Test("the default policy derives lease and settle from the refresh interval")
    func policyDefaults() {
        let policy = OwnershipPolicy.standard
        #expect(policy.lease == policy.refreshInterval * 3)
        #expect(policy.settle == policy.refreshInterval * 3 / 2)
        #expect(OwnershipPolicy(refreshInterval: .seconds(4)).lease == .seconds(12))
    }
}
