import Testing

@testable import Bridge

/// The seam of the offline-command wait: a deadline that answers before anyone waits is not lost.
struct FirstAnswerTests {
    @Test func anAnswerGivenBeforeTheWaitIsReturnedAtOnce() async {
        let answer = FirstAnswer<Bool>()
        answer.answer(false)
        #expect(await answer.value == false)
    }

    @Test func theFirstAnswerWinsAndLaterOnesAreIgnored() async {
        let answer = FirstAnswer<Int>()
        answer.answer(1)
        answer.answer(2)
        #expect(await answer.value == 1)
        #expect(await answer.value == 1)
    }

    @Test func everyWaiterGetsAnAnswerGivenLater() async {
        let answer = FirstAnswer<String>()
        async let first = answer.value
        async let second = answer.value
        // The waiters may or may not be registered yet: either way they get the answer.
        answer.answer("connected")
        #expect(await [first, second] == ["connected", "connected"])
    }
}
