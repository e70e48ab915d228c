import Testing

@testable import WebUI

struct RequestSlotsTests {
    /// A page gets at most `limit` frames waiting for replies; each reply frees one.
    @Test func slotsRunOutAndComeBack() {
        let slots = RequestSlots(limit: 2)
        #expect(slots.take() && slots.take())
        #expect(!slots.take(), "a third frame waits for none of the first two")
        slots.give()
        #expect(slots.take())
        slots.give()
        slots.give()
        slots.give()
        #expect(slots.take() && slots.take() && !slots.take(), "extra gives never make more than the limit")
    }
}
