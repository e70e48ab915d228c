import Fleet
import Foundation
import Testing

@testable import Bridge

#if canImport(Glibc)
    import Glibc
#endif

/// The fleet incarnation never goes backwards: a missing file is the first start (at the clock's seconds),
/// anything else unreadable is refused, the largest number a claim carries is refused, and one file serves one
/// gateway at a time.
struct IncarnationTests {
    /// A folder of the test's own, removed by the caller's `defer`.
    private func makeFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("g2m-incarnation-\(UUID().uuidString.prefix(8))")
            .path
    }

    @Test func aMissingFileIsTheFirstStartAndTheNumberIsKeptOnDisk() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/state/fleet-incarnation"
        #expect(try Incarnation.read(file) == 0)
        let before = Incarnation.clockSeconds()
        let first = try Incarnation.next(file: file)
        #expect(
            first >= before && first <= Incarnation.clockSeconds(),
            "the first start begins at the clock's seconds; the folder is made too")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "\(first)\n")
        #expect(!FileManager.default.fileExists(atPath: file + ".new"), "written through a temporary file, renamed")
    }

    /// A gateway under `auto` whose default file is taken (a second gateway on the host) runs on the clock's seconds
    /// and says so; once it has a file of its own, the first start there does not go back below what it ran on.
    @Test func theClockStandsInForATakenDefaultFileAndAFileLaterGoesOnFromIt() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = FleetOptions()
        options.joining = .whenOthersOnline
        options.incarnationFile = folder + "/fleet-incarnation"
        _ = try Incarnation.next(file: options.incarnationFile)  // the other gateway holds the lock from now on
        var notes: [String] = []
        let onClock = try Incarnation.forGateway(options) { notes.append($0) }
        #expect(notes.count == 1 && notes[0].contains("the clock"), "\(notes)")
        #expect(try Incarnation.next(file: folder + "/own-file") >= onClock, "the incarnation never goes back")
        options.incarnationFileChosen = true
        #expect(throws: (any Error).self, "a file the user chose is never replaced by the clock") {
            try Incarnation.forGateway(options) { _ in }
        }
    }

    @Test func aSecondGatewayOnTheSameFileIsRefused() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/fleet-incarnation"
        let first = try Incarnation.next(file: file)
        #expect {
            try Incarnation.next(file: file)
        } throws: { "\($0)".contains("in use by another gatt2mqtt") }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "\(first)\n", "the refused start changed nothing")
    }

    @Test(arguments: [
        "", "\n", "twelve\n", "-3\n", "1.5\n", "18446744073709551616\n", String(repeating: "9", count: 40),
    ])
    func anUnreadableNumberIsRefusedNotTakenAsZero(content: String) throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/fleet-incarnation"
        try content.write(toFile: file, atomically: true, encoding: .utf8)
        #expect {
            try Incarnation.read(file)
        } throws: { "\($0)".contains("holds no incarnation number") }
    }

    @Test func theLargestNumberAClaimCarriesIsRefusedRatherThanOverflowing() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/fleet-incarnation"
        try "\(ClaimCodec.maximumCounter - 1)\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try Incarnation.read(file) == ClaimCodec.maximumCounter - 1)
        try "\(ClaimCodec.maximumCounter)\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect {
            try Incarnation.read(file)
        } throws: { "\($0)".contains("the largest incarnation a claim carries") }
        try "\(UInt64.max)\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(throws: (any Error).self) { try Incarnation.read(file) }
    }

    @Test func aFileThatCannotBeReadIsRefused() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A folder where the file should be: there, but not readable as a number.
        try FileManager.default.createDirectory(
            atPath: folder + "/fleet-incarnation", withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try Incarnation.read(folder + "/fleet-incarnation") }
    }

    /// Before: a FIFO in the file's place held the start for good, with no line. Now it is refused with what it is:
    /// under `auto` the clock stands in for the default file, as for one that cannot be read, and a file the user
    /// chose stops the start with that line.
    @Test func aFIFOInTheFilesPlaceIsRefusedAtOnceWithWhatItIs() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var options = FleetOptions()
        options.joining = .whenOthersOnline
        options.incarnationFile = folder + "/fleet-incarnation"
        #expect(mkfifo(options.incarnationFile, 0o600) == 0)
        var notes: [String] = []
        let onClock = try Incarnation.forGateway(options) { notes.append($0) }
        #expect(onClock >= 1)
        #expect(notes.count == 1 && notes[0].contains("fleet-incarnation is a FIFO, not a regular file"), "\(notes)")
        options.incarnationFile = folder + "/chosen-incarnation"
        options.incarnationFileChosen = true
        #expect(mkfifo(options.incarnationFile, 0o600) == 0)
        #expect {
            try Incarnation.forGateway(options) { _ in }
        } throws: { "\($0)".contains("chosen-incarnation is a FIFO, not a regular file") }
    }

    /// Before: the lock file was opened through a link, creating its target; the temporary `.new` was written through
    /// one, and the rename made the incarnation file that link. Now neither link is followed.
    @Test func noLinkBesideTheFileIsFollowed() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/fleet-incarnation"
        try "untouched".write(toFile: folder + "/victim", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: file + ".new", withDestinationPath: folder + "/victim")
        let first = try Incarnation.next(file: folder + "/fleet-incarnation")
        #expect(try String(contentsOfFile: folder + "/victim", encoding: .utf8) == "untouched")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "\(first)\n")
        let type = try FileManager.default.attributesOfItem(atPath: file)[.type] as? FileAttributeType
        #expect(type == .typeRegular)

        let other = folder + "/other-incarnation"
        try FileManager.default.createSymbolicLink(atPath: other + ".lock", withDestinationPath: folder + "/created")
        #expect {
            try Incarnation.next(file: other)
        } throws: { "\($0)".contains("other-incarnation.lock: it is a symbolic link") }
        #expect(!FileManager.default.fileExists(atPath: folder + "/created"), "the link's target is not created")
    }
}
