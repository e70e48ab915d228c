import Testing

@testable import Bridge

struct CommandWaitDeadlineTests {
    /// A command waits for its device as long as its message expiry says, but never beyond 300 s: an expiry of
    /// about 2^32 s used to park it, and every command behind it in the device's queue, for good.
    @Test(arguments: [(UInt32(1), 1), (UInt32(299), 299), (UInt32(300), 300), (UInt32(301), 300), (UInt32.max, 300)])
    func aCommandWaitsAtMostFiveMinutes(expiry: UInt32, seconds: Int) {
        let received = ContinuousClock.now
        #expect(CommandRouter.waitDeadline(received: received, messageExpiry: expiry) == received + .seconds(seconds))
    }
}
