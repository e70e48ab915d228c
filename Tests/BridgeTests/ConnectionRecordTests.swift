import Testing

@testable import Bridge

/// A device's connection state is held once, in its `ConnectionRecord`: a command that waits for its device waits
/// there, released by the same change that records `connected`.
struct ConnectionRecordTests {
    @Test func aWaitingCommandGoesOnWhenTheStateSaysConnected() async {
        let record = ConnectionRecord()
        #expect(record.announced == nil && record.current == .disconnected, "nothing said yet")
        record.set(.connecting)
        let waiting = Task { await record.waitUntilConnected(until: .now + .seconds(60)) }
        // Not released by another state; released by `connected`, however the wait and the change interleave.
        record.set(.handshake)
        record.set(.connected)
        #expect(await waiting.value)
        #expect(await record.waitUntilConnected(until: .now), "already connected: no wait")
        #expect(record.current == .connected)
    }

    @Test func aWaitEndsAtItsDeadlineOrCancellation() async {
        let record = ConnectionRecord()
        record.set(.connected)
        record.set(.disconnected)
        #expect(await record.waitUntilConnected(until: .now + .milliseconds(20)) == false)
        let cancelled = Task { await record.waitUntilConnected(until: .now + .seconds(60)) }
        cancelled.cancel()
        #expect(await cancelled.value == false)
    }
}
