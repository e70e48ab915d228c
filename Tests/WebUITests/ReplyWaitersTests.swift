import Testing

@testable import WebUI

struct ReplyWaitersTests {
    @Test func aReplyReachesTheWaiterUnderItsKeyOnly() async throws {
        let waiters = ReplyWaiters()
        let reply = try await waiters.wait(for: .correlation("7"), timeout: .seconds(10)) {
            #expect(!waiters.deliver("other", to: .correlation("8")))
            #expect(waiters.deliver("answer", to: .correlation("7")))
        }
        #expect(reply == "answer")
        #expect(!waiters.deliver("late", to: .correlation("7")))
    }

    @Test func withoutAReplyTheWaitEndsWithNil() async throws {
        let waiters = ReplyWaiters()
        let reply = try await waiters.wait(for: .plain(topic: "belt/a/reply", name: "mode"), timeout: .milliseconds(50))
        {}
        #expect(reply == nil)
    }

    @Test func aFailedSendEndsTheWaitWithItsError() async {
        struct Refused: Error {}
        let waiters = ReplyWaiters()
        await #expect(throws: Refused.self) {
            _ = try await waiters.wait(for: .correlation("1"), timeout: .seconds(10)) { throw Refused() }
        }
        #expect(!waiters.deliver("late", to: .correlation("1")))
    }

    @Test func plainRepliesGoOldestFirst() async throws {
        let waiters = ReplyWaiters()
        let key = ReplyWaiters.Key.plain(topic: "belt/a/reply", name: "mode")
        async let first = waiters.wait(for: key, timeout: .seconds(10)) {}
        try await Task.sleep(for: .milliseconds(50))
        async let second = waiters.wait(for: key, timeout: .seconds(10)) {}
        try await Task.sleep(for: .milliseconds(50))
        #expect(waiters.deliver("one", to: key))
        #expect(waiters.deliver("two", to: key))
        #expect(try await first == "one")
        #expect(try await second == "two")
    }
}
