import Testing

@testable import WebUI

/// Which connection makes room for a newcomer: idle strangers first, oldest first; never a logged-in one.
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

    @Test func silentConnectionsGoBeforeOnesThatSentARequestAndLoggedInOnesNever() {
        var table = ConnectionTable<Int>(maxTotal: 3, maxPerSource: 3)
        for id in 1...3 { _ = table.open(id, from: attacker) }
        table.reached(.authenticated, 1)
        table.reached(.unauthenticated, 2)
        #expect(table.open(4, from: owner) == .init(admitted: true, evicted: [3]), "the silent one, though newer")
        table.reached(.authenticated, 4)
        #expect(table.open(5, from: owner) == .init(admitted: true, evicted: [2]), "then the one that never logged in")
        table.reached(.authenticated, 5)
        #expect(
            table.open(6, from: owner) == .init(admitted: false, evicted: []), "every connection is logged in: refused")
        #expect(table.count == 3)
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
        table.reached(.authenticated, 1)
        table.reached(.authenticated, 3)
        table.reached(.authenticated, 4)
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
}
