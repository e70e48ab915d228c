import Testing

@testable import BlueZ

struct TurnsTests {
    actor Log {
        var entries: [String] = []
        func append(_ entry: String) { entries.append(entry) }
    }

    /// Work on one key (a device's GATT operations, an adapter's connection attempts) never overlaps.
    @Test func turnsOnOneKeyNeverOverlap() async throws {
        let turns = Turns()
        let log = Log()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<5 {
                group.addTask {
                    try await turns.withTurn(on: "/org/bluez/hci0/dev_1") {
                        await log.append("start \(index)")
                        await Task.yield()
                        await log.append("end \(index)")
                    }
                }
            }
            try await group.waitForAll()
        }
        let entries = await log.entries
        #expect(entries.count == 10)
        for pair in stride(from: 0, to: entries.count, by: 2) {
            // Every start is followed by its own end: nothing overlaps.
            #expect(entries[pair].dropFirst(6) == entries[pair + 1].dropFirst(4))
        }
    }

    /// Another key does not wait: a turn held on one device leaves the others free.
    @Test func anotherKeyDoesNotWait() async throws {
        let turns = Turns()
        let (held, release) = AsyncStream.makeStream(of: Void.self)
        let (taken, announce) = AsyncStream.makeStream(of: Void.self)
        let holder = Task {
            try await turns.withTurn(on: "a") {
                announce.yield()
                for await _ in held {}
            }
        }
        for await _ in taken { break }
        // "a" is held until released below; "b" runs meanwhile.
        #expect(try await turns.withTurn(on: "b") { 7 } == 7)
        release.finish()
        try await holder.value
    }

    @Test func aFailingTurnDoesNotBlockTheNextOne() async throws {
        let turns = Turns()
        await #expect(throws: CancellationError.self) {
            try await turns.withTurn(on: "a") { throw CancellationError() }
        }
        #expect(try await turns.withTurn(on: "a") { 42 } == 42)
    }
}
