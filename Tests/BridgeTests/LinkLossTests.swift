import Testing

@testable import Bridge

struct LinkLossTests {
    @Test func aLossWhileWaitingIsReturnedWithItsReason() async {
        let loss = LinkLoss()
        loss.arm()
        async let reason = loss.wait()
        // Signal until the waiter has registered: a signal before it is kept as pending, so either way it counts.
        loss.signal(.dropped)
        #expect(await reason == .dropped)
    }

    /// The real stack showed it: the link dropped after the handshake but before the session waited.
    @Test func aLossBeforeTheWaitIsNotForgotten() async {
        let loss = LinkLoss()
        loss.arm()
        loss.signal(.dropped)
        #expect(await loss.wait() == .dropped)
    }

    @Test func aLossBeforeArmingIsForgottenAndAnUnarmedWaitEndsAtOnce() async {
        let loss = LinkLoss()
        loss.signal(.dropped)
        #expect(await loss.wait() == .ended)
        loss.arm()
        loss.signal(.dropped)
        #expect(await loss.wait() == .dropped)
        // The pending loss is taken once.
        #expect(await loss.wait() == .ended)
    }

    /// The gateway switches a belt off (standby) or shuts down: BlueZ reports the link going down while the gateway
    /// disconnects, before it says the link ended. That drop is the ending, not a lost link; the next connection
    /// counts drops again.
    @Test func aDropWhileTheGatewayEndsTheLinkIsAnEnding() async {
        let loss = LinkLoss()
        loss.arm()
        loss.expectEnding()
        loss.signal(.dropped)
        loss.signal(.ended)
        #expect(await loss.wait() == .ended)
        loss.arm()
        loss.signal(.dropped)
        #expect(await loss.wait() == .dropped)
    }

    @Test func anEndingExpectedBeforeArmingIsForgotten() async {
        let loss = LinkLoss()
        loss.expectEnding()
        loss.arm()
        loss.signal(.dropped)
        #expect(await loss.wait() == .dropped)
    }

    /// The real stack under load: the `Connected: false` of a failed attempt's half-made link, which the gateway had
    /// disconnected, came while the next attempt was setting up. Once that link is up, the report is forgotten, and a
    /// drop afterwards still counts.
    @Test func aLateDisconnectOfTheLinkBeforeIsForgottenOnceThisLinkIsUp() async {
        let loss = LinkLoss()
        loss.arm()
        loss.disconnectReported()
        #expect(await loss.forgetLateDisconnect(if: { true }))
        loss.signal(.dropped)
        #expect(await loss.wait() == .dropped)
    }

    @Test func aDisconnectIsKeptWhileTheLinkIsDown() async {
        let loss = LinkLoss()
        loss.arm()
        loss.disconnectReported()
        #expect(await !loss.forgetLateDisconnect(if: { false }))
        #expect(await loss.wait() == .dropped)
    }

    /// Only BlueZ's `Connected: false` can be checked against the link: services gone or bluetoothd gone cannot.
    @Test func anyOtherLossKeepsThePendingOne() async {
        let loss = LinkLoss()
        loss.arm()
        loss.disconnectReported()
        loss.signal(.dropped)
        #expect(await !loss.forgetLateDisconnect(if: { true }))
        #expect(await loss.wait() == .dropped)
    }

    /// A drop reported while the check asks BlueZ is this link's.
    @Test func aDisconnectDuringTheCheckIsKept() async {
        let loss = LinkLoss()
        loss.arm()
        loss.disconnectReported()
        #expect(
            await !loss.forgetLateDisconnect(if: {
                loss.disconnectReported()
                return true
            }))
        #expect(await loss.wait() == .dropped)
    }

    @Test func nothingPendingIsNothingToForget() async {
        let loss = LinkLoss()
        loss.arm()
        #expect(await !loss.forgetLateDisconnect(if: { true }))
        loss.signal(.ended)
        #expect(await loss.wait() == .ended)
    }
}
