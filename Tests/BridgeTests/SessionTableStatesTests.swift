import Testing

@testable import Bridge

/// The session table is the one record of the sessions' connection states outside the sessions: a command that
/// waits for its device waits there, released by the same change that records `connected`.
struct SessionTableStatesTests {
    private let path = "/org/bluez/hci0/dev_00_11_22_33_44_51"

    @Test func aWaitingCommandGoesOnWhenTheStateSaysConnected() async {
        let table = SessionTable()
        table.setConnectionState(.connecting, at: path)
        let waiting = Task { await table.waitForConnection(path, until: .now + .seconds(60)) }
        // Not released by another state; released by `connected`, however the wait and the change interleave.
        table.setConnectionState(.handshake, at: path)
        table.setConnectionState(.connected, at: path)
        #expect(await waiting.value)
        #expect(await table.waitForConnection(path, until: .now), "already connected: no wait")
        #expect(table.inventoryView().states[path] == .connected)
    }

    @Test func aWaitEndsAtItsDeadlineOrCancellationAndAForgottenStateIsNotConnected() async {
        let table = SessionTable()
        table.setConnectionState(.connected, at: path)
        table.forgetConnectionState(at: path)
        #expect(await table.waitForConnection(path, until: .now + .milliseconds(20)) == false)
        let cancelled = Task { await table.waitForConnection(path, until: .now + .seconds(60)) }
        cancelled.cancel()
        #expect(await cancelled.value == false)
    }
}
