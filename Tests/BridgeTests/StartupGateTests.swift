import Testing

@testable import Bridge

@Suite struct StartupGateTests {
    @Test func aWaiterBeforeTheOpeningPassesWhenItOpens() async {
        let gate = StartupGate()
        let waiter = Task { await gate.passed() }
        // The waiter may or may not have registered yet: either way it must see the gate open.
        gate.open()
        #expect(await waiter.value)
    }

    @Test func anOpenGateStaysOpen() async {
        let gate = StartupGate()
        gate.open()
        #expect(await gate.passed())
        #expect(await gate.passed())
    }

    @Test func aCancelledWaiterStopsWaitingAndTheGateStillOpensForOthers() async {
        let gate = StartupGate()
        let cancelled = Task { await gate.passed() }
        let other = Task { await gate.passed() }
        cancelled.cancel()
        #expect(await cancelled.value == false)
        gate.open()
        #expect(await other.value)
    }

    @Test func aWaiterCancelledBeforeItWaitsDoesNotWait() async {
        let gate = StartupGate()
        let passed = await withTaskGroup(of: Bool.self) { group in
            group.cancelAll()
            group.addTask { await gate.passed() }
            return await group.next() ?? true
        }
        #expect(passed == false)
    }
}
