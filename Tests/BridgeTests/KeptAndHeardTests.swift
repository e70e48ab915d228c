import Testing

@testable import Bridge

struct KeptAndHeardTests {
    /// Strangers on the broker publishing `desired` under ever new ids fill the heard table only to its limit:
    /// the id heard longest ago makes room, the newest are all there.
    @Test func idsHeardBeyondTheLimitForgetTheOldest() {
        var table = KeptAndHeard<Int, Int>(limit: 4)
        for index in 0..<10 {
            table.hear("stranger\(index)", empty: 0) { $0 = index }
        }
        #expect(table.counts.heard == 4)
        #expect(table.newer("stranger0") { $0 } == nil)
        #expect((6..<10).map { table.newer("stranger\($0)") { $0 } } == [6, 7, 8, 9])
    }

    /// An id already held is changed in place and makes no room; what this gateway kept is bounded the same way.
    @Test func anIdHeldAgainTakesNoRoomAndKeptIsBoundedToo() {
        var table = KeptAndHeard<Int, Int>(limit: 2)
        table.hear("a", empty: 0) { $0 = 1 }
        table.hear("b", empty: 0) { $0 = 2 }
        table.hear("a", empty: 0) { $0 += 10 }
        #expect(table.counts.heard == 2)
        #expect(table.newer("a") { $0 } == 11)
        for index in 0..<5 { table.keep(index, for: "served\(index)") }
        #expect(table.counts.kept == 2)
        #expect(table.kept("served4") == 4 && table.kept("served0") == nil)
    }
}
