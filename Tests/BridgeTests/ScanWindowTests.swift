import Testing

@testable import Bridge

/// The scan request's window: sightings count only while it is open, a newer request extends it, and
/// only the latest request ends it.
struct ScanWindowTests {
    private let start = ContinuousClock.now

    @Test func sightingsCountOnlyWhileTheWindowIsOpen() {
        let window = ScanWindow(seenLimit: 10)
        #expect(!window.sighted("A", now: start))
        let generation = window.open(for: 5, now: start)
        #expect(window.sighted("A", now: start + .seconds(1)))
        #expect(window.sighted("A", now: start + .seconds(2)))
        #expect(window.sighted("B", now: start + .seconds(4)))
        #expect(!window.sighted("C", now: start + .seconds(5)))
        #expect(window.close(generation) == 2)
        #expect(!window.sighted("D", now: start + .seconds(1)))
    }

    @Test func aNewerRequestExtendsTheScanAndOnlyItEndsIt() {
        let window = ScanWindow(seenLimit: 10)
        let first = window.open(for: 5, now: start)
        #expect(window.sighted("A", now: start + .seconds(1)))
        let second = window.open(for: 5, now: start + .seconds(3))
        #expect(window.close(first) == nil)
        #expect(window.sighted("B", now: start + .seconds(7)))
        #expect(window.close(second) == 2)
    }

    @Test func aScanAfterTheLastOneEndedCountsAfreshAndUpToItsLimit() {
        let window = ScanWindow(seenLimit: 3)
        let first = window.open(for: 1, now: start)
        for address in ["A", "B"] { #expect(window.sighted(address, now: start)) }
        _ = window.close(first)
        let second = window.open(for: 1, now: start + .seconds(2))
        for address in ["C", "D", "E", "F"] { #expect(window.sighted(address, now: start + .seconds(2))) }
        #expect(window.close(second) == 3)
    }
}

/// The adapters' retained statuses are published only on a change, and the summary only when it changes.
struct AdapterStatusBoardTests {
    @Test func changesAndSummaryChangesAreReportedOnce() {
        let board = AdapterStatusBoard(adapters: ["hci0", "hci1"])
        #expect(board.record(.off, of: "hci1") == (true, .off))
        #expect(board.record(.off, of: "hci1") == (false, nil))
        #expect(board.record(.powered, of: "hci0") == (true, .powered))
        #expect(board.powered == ["hci0"])
        #expect(board.record(.powered, of: "hci1") == (true, nil))
        #expect(board.powered == ["hci0", "hci1"])
        #expect(board.record(.missing, of: "hci0") == (true, nil))
        #expect(board.record(.unauthorized, of: "hci1") == (true, .unauthorized))
        #expect(board.powered.isEmpty)
    }
}
