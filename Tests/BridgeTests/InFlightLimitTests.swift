import Testing

@testable import Bridge

struct InFlightLimitTests {
    /// At most `limit` at once; each end frees a place, and extra ends never make more.
    @Test func placesRunOutAndComeBack() {
        let limit = InFlightLimit(2)
        #expect(limit.take() && limit.take())
        #expect(!limit.take(), "a third waits for none of the first two")
        limit.give()
        #expect(limit.take())
        limit.give()
        limit.give()
        limit.give()
        #expect(limit.take() && limit.take() && !limit.take())
    }
}
