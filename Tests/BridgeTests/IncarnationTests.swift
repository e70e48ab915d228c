import Fleet
import Foundation
import Testing

@testable import Bridge

/// The fleet incarnation never goes backwards: a missing file is the first start, anything else unreadable is
/// refused, the largest number a claim carries is refused, and one file serves one gateway at a time.
struct IncarnationTests {
    /// A folder of the test's own, removed by the caller's `defer`.
    private func makeFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("g2m-incarnation-\(UUID().uuidString.prefix(8))").path
    }

    @Test func aMissingFileIsTheFirstStartAndTheNumberIsKeptOnDisk() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/state/fleet-incarnation"
        #expect(try Incarnation.read(file) == 0)
        #expect(try Incarnation.next(file: file) == 1, "the folder is made too")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "1\n")
        #expect(!FileManager.default.fileExists(atPath: file + ".new"), "written through a temporary file, renamed")
    }

    @Test func aSecondGatewayOnTheSameFileIsRefused() throws {
        let folder = makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/fleet-incarnation"
        #expect(try Incarnation.next(file: file) == 1)
        #expect {
            try Incarnation.next(file: file)
        } throws: { "\($0)".contains("in use by another gatt2mqtt") }
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "1\n", "the refused start changed nothing")
    }

    @Test(arguments: ["", "\n", "twelve\n", "-3\n", "1.5\n", "18446744073709551616\n", String(repeating: "9", count: 40)])
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
        try FileManager.default.createDirectory(atPath: folder + "/fleet-incarnation", withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try Incarnation.read(folder + "/fleet-incarnation") }
    }
}
