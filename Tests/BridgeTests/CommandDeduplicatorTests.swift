import Testing

@testable import Bridge

struct CommandDeduplicatorTests {
    @Test func aRepeatWithinTheWindowIsCaughtAndForgottenAfterIt() {
        var deduplicator = CommandDeduplicator(window: .seconds(10), capacity: 100)
        let start = ContinuousClock.now
        let answers = [
            deduplicator.isRepeat("a", at: start),
            deduplicator.isRepeat("a", at: start + .seconds(9)),
            deduplicator.isRepeat("b", at: start + .seconds(9)),
            deduplicator.isRepeat("a", at: start + .seconds(11)),  // outside the window: a new command
        ]
        #expect(answers == [false, true, false, false])
    }

    @Test func capacityBoundsMemory() {
        var deduplicator = CommandDeduplicator(window: .seconds(600), capacity: 3)
        let now = ContinuousClock.now
        let first = ["1", "2", "3", "4"].map { deduplicator.isRepeat($0, at: now) }
        #expect(first == [false, false, false, false])
        let oldestDropped = deduplicator.isRepeat("1", at: now)
        let newestKept = deduplicator.isRepeat("4", at: now)
        #expect(!oldestDropped)
        #expect(newestKept)
    }

    @Test func identityIsTopicPlusTransactionOrCorrelation() {
        #expect(CommandDeduplicator.key(topic: "t", transaction: .number(7), correlationData: [1]) == "t\u{0}t7")
        #expect(CommandDeduplicator.key(topic: "t", transaction: nil, correlationData: [1, 2]) == "t\u{0}c1,2")
        #expect(CommandDeduplicator.key(topic: "t", transaction: nil, correlationData: nil) == nil)
        #expect(CommandDeduplicator.key(topic: "u", transaction: .number(7), correlationData: nil)
            != CommandDeduplicator.key(topic: "t", transaction: .number(7), correlationData: nil))
    }
}
