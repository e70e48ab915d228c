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

    /// Issue #45, item 5: a key seen again after its window was listed twice in the eviction order, and its stale
    /// entry, evicted first, took the fresh one with it: a QoS 1 redelivery of that command ran twice.
    @Test func aKeySeenAgainAfterItsWindowIsRememberedAgainInFull() {
        var deduplicator = CommandDeduplicator(window: .seconds(10), capacity: 3)
        let start = ContinuousClock.now
        let answers = [
            deduplicator.isRepeat("a", at: start),
            deduplicator.isRepeat("a", at: start + .seconds(11)),  // a new command with an old key
            deduplicator.isRepeat("b", at: start + .seconds(12)),
            deduplicator.isRepeat("c", at: start + .seconds(12)),
        ]
        #expect(answers == [false, false, false, false])
        #expect(deduplicator.count == 3)
        let redelivery = deduplicator.isRepeat("a", at: start + .seconds(13))
        #expect(redelivery, "the redelivery of the second command")
        // The capacity still takes the oldest: a fourth key pushes `a` (recorded at 11 s) out, not `b`.
        let later = [
            deduplicator.isRepeat("d", at: start + .seconds(14)),
            deduplicator.isRepeat("b", at: start + .seconds(14)),
            deduplicator.isRepeat("a", at: start + .seconds(14)),
        ]
        #expect(later == [false, true, false])
    }

    /// At the daemon's capacity, with every key re-seen after its window, the memory holds exactly the keys of the
    /// window and each one answers right.
    @Test func atFullCapacityEveryAnswerIsExact() {
        var deduplicator = CommandDeduplicator(window: .seconds(600), capacity: 10_000)
        let start = ContinuousClock.now
        for index in 0..<10_000 { _ = deduplicator.isRepeat("k\(index)", at: start) }
        var wrong = 0
        for index in 0..<10_000 where deduplicator.isRepeat("k\(index)", at: start + .seconds(601)) { wrong += 1 }
        #expect(wrong == 0, "every key's window had passed")
        #expect(deduplicator.count == 10_000)
        for index in 0..<10_000 where !deduplicator.isRepeat("k\(index)", at: start + .seconds(602)) { wrong += 1 }
        #expect(wrong == 0, "every key was recorded again at 601 s")
    }

    @Test func identityIsTopicPlusTransactionOrCorrelation() {
        #expect(CommandDeduplicator.key(topic: "t", transaction: .number(7), correlationData: [1]) == "t\u{0}t7")
        #expect(CommandDeduplicator.key(topic: "t", transaction: nil, correlationData: [1, 2]) == "t\u{0}c1,2")
        #expect(CommandDeduplicator.key(topic: "t", transaction: nil, correlationData: nil) == nil)
        #expect(
            CommandDeduplicator.key(topic: "u", transaction: .number(7), correlationData: nil)
                != CommandDeduplicator.key(topic: "t", transaction: .number(7), correlationData: nil))
    }
}
