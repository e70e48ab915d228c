import Testing

@testable import WebUI

/// Which connection makes room for a newcomer: idle strangers first, then idle logged-in ones, oldest first in each;
/// never one at work (a request being served, a WebSocket).
struct ConnectionTableTests {
    let attacker = SourceAddress("127.0.0.1")
    let owner = SourceAddress("192.0.2.10")

    @Test func aNewcomerFromTheSameSourceClosesTheOldestSilentConnection() {
        var table = ConnectionTable<Int>(maxTotal: 100, maxPerSource: 3)
        for id in 1...3 { #expect(table.open(id, from: attacker) == .init(admitted: true, evicted: [])) }
        #expect(table.open(4, from: attacker) == .init(admitted: true, evicted: [1]))
        #expect(table.count(from: attacker) == 3)
        // Everyone here is 127.0.0.1 in a test: the legitimate client gets in the same way.
        #expect(table.open(5, from: attacker) == .init(admitted: true, evicted: [2]))
    }

    @Test func silentConnectionsGoBeforeOnesThatSentARequestAndOnesAtWorkNever() {
        var table = ConnectionTable<Int>(maxTotal: 3, maxPerSource: 3)
        for id in 1...3 { _ = table.open(id, from: attacker) }
        table.reached(.authenticated, 1)
        table.started(1)
        table.reached(.unauthenticated, 2)
        #expect(table.open(4, from: owner) == .init(admitted: true, evicted: [3]), "the silent one, though newer")
        table.reached(.authenticated, 4)
        table.started(4)
        #expect(table.open(5, from: owner) == .init(admitted: true, evicted: [2]), "then the one that never logged in")
        table.reached(.authenticated, 5)
        table.started(5)
        #expect(
            table.open(6, from: owner) == .init(admitted: false, evicted: []), "every connection is at work: refused")
        #expect(table.count == 3)
    }

    /// Issue #56: on the page without credentials every request logs in, and kept-alive connections that had sent one
    /// were never closed for a newcomer, so 32 of them from 127.0.0.1 kept every other client from there out. Once
    /// answered, a logged-in connection makes room, after the idle strangers; while served, or as a WebSocket, never.
    @Test func aKeptAliveConnectionMakesRoomOnceAnswered() {
        var table = ConnectionTable<Int>(maxTotal: 100, maxPerSource: 3)
        for id in 1...3 {
            _ = table.open(id, from: attacker)
            table.reached(.authenticated, id)
            table.started(id)
        }
        #expect(table.open(4, from: attacker) == .init(admitted: false, evicted: []), "all three are being served")
        table.finished(2)
        table.finished(3)
        #expect(!table.isAtWork(2) && table.isAtWork(1))
        #expect(table.open(5, from: attacker) == .init(admitted: true, evicted: [2]), "the oldest answered one")
        // A newcomer that has sent nothing yet goes before a logged-in one that waits for its next request.
        #expect(table.open(6, from: attacker) == .init(admitted: true, evicted: [5]))
        table.reached(.unauthenticated, 6)
        #expect(table.open(7, from: attacker) == .init(admitted: true, evicted: [6]), "then one that did not log in")
        // One still served stays; a `finished` without a `started` counts for nothing.
        table.finished(7)
        #expect(table.open(8, from: attacker) == .init(admitted: true, evicted: [7]))
        table.reached(.authenticated, 8)
        table.started(8)
        #expect(table.open(9, from: attacker) == .init(admitted: true, evicted: [3]), "the last one not at work")
        #expect(table.isAtWork(1) && table.stage(of: 1) == .authenticated)
    }

    @Test func theTotalLimitTakesRoomFromAnySource() {
        var table = ConnectionTable<Int>(maxTotal: 4, maxPerSource: 4)
        for id in 1...4 { _ = table.open(id, from: attacker) }
        #expect(table.open(5, from: owner) == .init(admitted: true, evicted: [1]))
        #expect(table.count == 4 && table.count(from: owner) == 1)
    }

    @Test func bothLimitsAtOnceCloseTwoAndRefusingClosesNone() {
        var table = ConnectionTable<Int>(maxTotal: 3, maxPerSource: 2)
        _ = table.open(1, from: owner)
        _ = table.open(2, from: attacker)
        _ = table.open(3, from: attacker)
        // The per-source limit closes 2 (attacker's oldest); that also frees a place in the total.
        #expect(table.open(4, from: attacker) == .init(admitted: true, evicted: [2]))
        for id in [1, 3, 4] {
            table.reached(.authenticated, id)
            table.started(id)
        }
        #expect(table.open(5, from: attacker) == .init(admitted: false, evicted: []))
        #expect(table.stage(of: 3) == .authenticated && table.count == 3)
    }

    @Test func stagesNeverGoBackAndClosingForgets() {
        var table = ConnectionTable<Int>(maxTotal: 2, maxPerSource: 2)
        _ = table.open(1, from: attacker)
        table.reached(.authenticated, 1)
        table.reached(.unauthenticated, 1)
        #expect(table.stage(of: 1) == .authenticated)
        table.close(1)
        table.close(1)
        #expect(table.count == 0 && table.count(from: attacker) == 0 && table.stage(of: 1) == nil)
    }

    /// Clients reconnecting many times a second (kept-alive ones closed to make room) each closed the youngest
    /// connection on its way in, before the server had read its request: a newly opened connection that has not sent
    /// a whole head yet goes after the idle kept-alive ones, for `fresh` (2 s); after that, first.
    @Test func aFreshConnectionGoesAfterIdleKeptAliveOnes() {
        let start = ContinuousClock.now
        var table = ConnectionTable<Int>(maxTotal: 100, maxPerSource: 3)
        for id in 1...2 {
            _ = table.open(id, from: attacker, at: start)
            table.reached(.authenticated, id)
        }
        _ = table.open(3, from: attacker, at: start + .seconds(10))
        #expect(
            table.open(4, from: attacker, at: start + .seconds(10.5)) == .init(admitted: true, evicted: [1]),
            "the oldest idle kept-alive one, not the fresh one")
        #expect(
            table.open(5, from: attacker, at: start + .seconds(13)) == .init(admitted: true, evicted: [3]),
            "3 s without a whole head: no longer fresh, the first to go")
    }

    /// Among fresh connections, silent ones still go first: a crowd reconnecting its idle sockets closes those, not a
    /// legitimate request whose head was read and whose credentials are being checked.
    @Test func amongFreshConnectionsSilentOnesGoFirst() {
        let start = ContinuousClock.now
        var table = ConnectionTable<Int>(maxTotal: 100, maxPerSource: 3)
        _ = table.open(1, from: attacker, at: start)
        table.reached(.unauthenticated, 1)
        _ = table.open(2, from: attacker, at: start + .seconds(0.1))
        _ = table.open(3, from: attacker, at: start + .seconds(0.2))
        #expect(
            table.open(4, from: attacker, at: start + .seconds(0.3)) == .init(admitted: true, evicted: [2]),
            "the oldest silent one, not the request being checked")
    }

    /// Issue #56: the oldest connection without a head may be a request the server has not read yet. Before it is
    /// closed the kernel is asked; one that spoke is spared until every silent one is gone, and then goes oldest first.
    @Test func aConnectionWhoseBytesWereNotReadYetGoesAfterTheSilentOnes() {
        let start = ContinuousClock.now
        var table = ConnectionTable<Int>(maxTotal: 100, maxPerSource: 3)
        for id in 1...3 { _ = table.open(id, from: attacker, at: start + .milliseconds(id)) }
        var asked: [Int] = []
        let spoke: Set = [1, 3]
        let hasSpoken = { (id: Int) in
            asked.append(id)
            return spoke.contains(id)
        }
        #expect(
            table.open(4, from: attacker, at: start + .milliseconds(4), hasSpoken: hasSpoken)
                == .init(admitted: true, evicted: [2]), "the silent one, though the one that spoke is older")
        #expect(asked == [1, 2], "asked oldest first, and only until a silent one was found")
        #expect(table.stage(of: 1) == .heard)
        #expect(
            table.open(5, from: attacker, at: start + .milliseconds(5), hasSpoken: hasSpoken)
                == .init(admitted: true, evicted: [4]), "the newest, silent, before the two that spoke")
        #expect(
            table.open(6, from: attacker, at: start + .milliseconds(6), hasSpoken: { _ in true })
                == .init(admitted: true, evicted: [1]), "once all spoke, the oldest of them")
        #expect(table.stage(of: 5) == .heard)
    }
}
