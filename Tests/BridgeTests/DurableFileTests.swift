import Foundation
import Testing

@testable import Bridge

#if canImport(Glibc)
    import Glibc
#endif

/// The state files as a database keeps them (issue #56, item 5): whoever else can write the state directory can
/// neither turn a write elsewhere with a link, nor hang the start with a FIFO, nor leave the file as their link.
@Suite(.timeLimit(.minutes(1))) struct DurableFileTests {
    /// Before: the temporary was always `<file>.new`, opened without `O_EXCL` or `O_NOFOLLOW`: a link planted there
    /// had its target overwritten with the state, and the rename made the state file that link.
    @Test func aLinkPlantedAtATemporaryNameLeavesItsTargetAlone() throws {
        let folder = try StateFolder()
        try folder.write("victim", "untouched")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/adopted.json.new", withDestinationPath: folder.path + "/victim")
        try DurableFile.replace(folder.path + "/adopted.json", with: Array("[]".utf8))
        #expect(try folder.read("victim") == "untouched")
        #expect(try folder.type("adopted.json") == .typeRegular)
        #expect(try folder.read("adopted.json") == "[]")
        #expect(try folder.type("adopted.json.new") == .typeSymbolicLink, "the planted link is left, not followed")
        #expect(folder.names == ["adopted.json", "adopted.json.new", "victim"], "no temporary left behind")
    }

    /// A link in the state file's own place is replaced by a regular file; what it pointed at is not written.
    @Test func aLinkInTheFilesPlaceIsReplacedNotFollowed() throws {
        let folder = try StateFolder()
        try folder.write("victim", "untouched")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/options.json", withDestinationPath: folder.path + "/victim")
        try DurableFile.replace(folder.path + "/options.json", with: Array("{}".utf8))
        #expect(try folder.read("victim") == "untouched")
        #expect(try folder.type("options.json") == .typeRegular)
    }

    /// A new state file is the owner's alone; one that was there keeps its permissions.
    @Test func aNewFileIsTheOwnersAloneAndAnOldOneKeepsItsMode() throws {
        let folder = try StateFolder()
        try DurableFile.replace(folder.path + "/identities.json", with: Array("{}".utf8))
        #expect(try folder.mode("identities.json") == 0o600)
        try FileManager.default.setAttributes(
            [.posixPermissions: 0o640], ofItemAtPath: folder.path + "/identities.json")
        try DurableFile.replace(folder.path + "/identities.json", with: Array("{\"a\":\"b\"}".utf8))
        #expect(try folder.mode("identities.json") == 0o640)
        #expect(try folder.read("identities.json") == "{\"a\":\"b\"}")
    }

    /// Writers at once never share a temporary: each write lands whole.
    @Test func writersAtOnceEachLandWhole() async throws {
        let folder = try StateFolder()
        let file = folder.path + "/adopted.json"
        let texts = (0..<16).map { String(repeating: "\($0 % 10)", count: 4096 + $0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for text in texts {
                group.addTask { try DurableFile.replace(file, with: Array(text.utf8)) }
            }
            try await group.waitForAll()
        }
        #expect(texts.contains(try folder.read("adopted.json")))
        #expect(folder.names == ["adopted.json"])
    }

    /// Before: a FIFO was opened for reading and the start waited for a writer, for good, with no line. Now it, a
    /// folder, a socket and a link are each refused at once, with what they are.
    @Test func whatIsNoRegularFileIsRefusedAtOnceWithWhatItIs() throws {
        let folder = try StateFolder()
        try folder.write("target", "[]")
        #expect(mkfifo(folder.path + "/fifo", 0o600) == 0)
        try FileManager.default.createDirectory(atPath: folder.path + "/folder", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/link", withDestinationPath: folder.path + "/target")
        let socket = try listeningSocket(at: folder.path + "/socket")
        defer { close(socket) }
        for (name, kind) in [
            ("fifo", "a FIFO"), ("folder", "a folder"), ("link", "a symbolic link"), ("socket", "a socket"),
        ] {
            #expect {
                _ = try DurableFile.read(folder.path + "/" + name, limit: 1024)
            } throws: { error in
                guard let failure = error as? DurableFile.Failure else { return false }
                return failure.notAFile
                    && failure.description == "\(folder.path)/\(name) is \(kind), not a regular file: not read"
            }
        }
        #expect(try DurableFile.read(folder.path + "/target", limit: 1024) == Array("[]".utf8))
        #expect(try DurableFile.read(folder.path + "/missing", limit: 1024) == nil)
    }

    /// Setting aside renames whatever is there (a link stays a link, its target unread), with the time in UTC, and
    /// never over an earlier one.
    @Test func aDamagedFileIsSetAsideWithTheTimeOnce() throws {
        let folder = try StateFolder()
        try folder.write("victim", "untouched")
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/options.json", withDestinationPath: folder.path + "/victim")
        let time = Date(timeIntervalSince1970: 1_796_183_724)  // 2026-12-02 03:55:24 UTC
        let first = try DurableFile.setAside(folder.path + "/options.json", at: time)
        #expect(first == folder.path + "/options.json.damaged-20261202T035524Z")
        #expect(try folder.type("options.json.damaged-20261202T035524Z") == .typeSymbolicLink)
        try folder.write("options.json", "{")
        let second = try DurableFile.setAside(folder.path + "/options.json", at: time)
        #expect(second == folder.path + "/options.json.damaged-20261202T035524Z-2")
        #expect(try folder.read("options.json.damaged-20261202T035524Z-2") == "{")
        #expect(try folder.read("victim") == "untouched")
        #expect(!folder.names.contains("options.json"))
    }

    /// A crash between a temporary's creation and its rename leaves `<file>.new-<hex>` beside the file; the gateway
    /// removes those at start. Only regular files of exactly that name, and only old ones: a write in progress in
    /// another process keeps its temporary, and a link or a file a person put there stays.
    @Test func temporariesLeftByACutShortWriteAreRemovedAtStart() throws {
        let folder = try StateFolder()
        let left = "adopted.json.new-00ab34cd56ef7890"
        let young = "fleet-incarnation.new-1234567890abcdef"
        for name in [left, young, "options.json.new-notahexnumber00", "notes.new-ABCDEF0123456789", "adopted.json"] {
            try folder.write(name, "{}")
        }
        try FileManager.default.createSymbolicLink(
            atPath: folder.path + "/identities.json.new-0000000000000001",
            withDestinationPath: folder.path + "/adopted.json")
        let now = Date()
        try FileManager.default.setAttributes(
            [.modificationDate: now.addingTimeInterval(-120)], ofItemAtPath: folder.path + "/" + left)
        for name in ["options.json.new-notahexnumber00", "notes.new-ABCDEF0123456789"] {
            try FileManager.default.setAttributes(
                [.modificationDate: now.addingTimeInterval(-120)], ofItemAtPath: folder.path + "/" + name)
        }
        #expect(DurableFile.removeLeftTemporaries(in: folder.path, now: now) == [left])
        #expect(
            folder.names == [
                "adopted.json", young, "identities.json.new-0000000000000001", "notes.new-ABCDEF0123456789",
                "options.json.new-notahexnumber00",
            ])
        #expect(DurableFile.removeLeftTemporaries(in: folder.path, now: now.addingTimeInterval(120)) == [young])
        #expect(DurableFile.removeLeftTemporaries(in: folder.path + "/missing").isEmpty)
    }

    private func listeningSocket(at path: String) throws -> Int32 {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.prefix(buffer.count - 1).enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard descriptor >= 0, bound == 0 else { throw DurableFile.Failure(description: "cannot bind \(path)") }
        return descriptor
    }
}
