import Foundation
import Testing

@testable import Bridge

#if canImport(Glibc)
    import Glibc
#endif

/// The identities file (`<state directory>/identities.json`) when it is not whole (issue #56, item 5): it is set
/// aside, never overwritten, with one line, and what it held soundly is kept; a FIFO in its place does not hold the
/// start.
@Suite(.timeLimit(.minutes(1))) struct IdentityFileTests {
    @Test func aFIFOInTheFilesPlaceIsRefusedAndSetAside() throws {
        let folder = try StateFolder()
        #expect(mkfifo(folder.path + "/identities.json", 0o600) == 0)
        let log = RecordingLog()
        let ledger = IdentityLedger(stateDirectory: folder.path, logger: log.logger())
        #expect(ledger.identity(of: .belt, at: "00:11:22:33:44:66") == nil)
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.hasPrefix("error the identities file is no regular file") == true, "\(log.lines)")
        #expect(log.lines.first?.contains("reason=it is a FIFO, not a regular file") == true, "\(log.lines)")
        #expect(folder.setAside("identities.json") == ["(no regular file)"])
    }

    /// Before: a file that was no JSON object was ignored and overwritten at the next identity kept; its
    /// identities were lost once the broker's configs were. Now it is set aside first.
    @Test(arguments: [
        (#"{"belt/00:11:22:33:44:66": "front-belt", "cpr/00:11:22:33:44:77": 7}"#, 1), ("{not json", 0),
    ])
    func aDamagedFileIsSetAsideAndItsSoundEntriesKept(content: String, kept: Int) throws {
        let folder = try StateFolder()
        try folder.write("identities.json", content)
        let log = RecordingLog()
        let ledger = IdentityLedger(stateDirectory: folder.path, logger: log.logger())
        #expect((ledger.identity(of: .belt, at: "00:11:22:33:44:66") != nil) == (kept == 1))
        #expect(log.lines.count == 1 && log.lines[0].hasPrefix("error the identities file holds"), "\(log.lines)")
        #expect(folder.setAside("identities.json") == [content])
        let rewritten = try? folder.read("identities.json")
        #expect(rewritten == (kept == 1 ? #"{"belt/00:11:22:33:44:66":"front-belt"}"# : nil), "the sound part, at once")
        ledger.keep("desk-band", of: .cpr, at: "00:11:22:33:44:77")
        #expect(folder.setAside("identities.json") == [content], "the copy set aside is not written")
    }
}
