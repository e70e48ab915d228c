import Testing

@testable import TestSupport

/// How real worlds share the guests: one world a guest, a world that asks for the machine alone gets it only with
/// every guest free, and waiters are served in the order they came. No guest is booted: the lease only counts.
struct GuestLeaseTests {
    @Test func worldsTakeTheLowestFreeGuestAndWaitWhenAllAreHeld() async {
        let lease = GuestLease(guests: 2)
        #expect(await lease.acquire() == 0)
        #expect(await lease.acquire() == 1)
        let third = Task { await lease.acquire() }
        await lease.release(1)
        #expect(await third.value == 1)
    }

    @Test func aWorldAloneWaitsForEveryGuestAndKeepsTheOthersIdle() async {
        let lease = GuestLease(guests: 2)
        let first = await lease.acquire()
        let aloneWorld = Task { await lease.acquire(alone: true) }
        await waitUntil(lease, hasWaiting: 1)
        // A world that comes after the one waiting to be alone waits behind it, though guest 1 is free.
        let later = Task { await lease.acquire() }
        await waitUntil(lease, hasWaiting: 2)
        await lease.release(first)
        let alone = await aloneWorld.value
        #expect(alone == 0)
        #expect(await lease.waitingCount == 1, "the later world still waits while one is alone")
        await lease.release(alone)
        #expect(await later.value == 0)
    }

    /// The lease's queue, polled on its actor: the waiters are tasks of their own.
    private func waitUntil(_ lease: GuestLease, hasWaiting count: Int) async {
        while await lease.waitingCount < count { await Task.yield() }
    }
}
