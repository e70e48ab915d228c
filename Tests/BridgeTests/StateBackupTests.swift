import Foundation
import Testing

@testable import Bridge

/// The state directory as one document, and put back (issue #58, item 3): read from the files the gateway keeps,
/// written and read back the same, refused whole when any part is not what the gateway keeps, and restored whole or
/// not at all, its fleet incarnation never going back.
@Suite(.timeLimit(.minutes(1))) struct StateBackupTests {
    static let belt = "00:11:22:33:44:55"
    static let band = "00:11:22:33:44:66"

    /// A state directory as a gateway upgraded from 0.9.0 leaves it after a few weeks.
    private func keptState() throws -> StateFolder {
        let folder = try StateFolder()
        try folder.write(
            "adopted.json",
            #"[{"address":"\#(Self.belt)","family":"belt"},{"address":"\#(Self.band)","family":"cpr"}]"#)
        try folder.write("identities.json", #"{"belt/\#(Self.belt)":"front-belt"}"#)
        try folder.write("options.json", #"{"devices":{"allow":["\#(Self.band)"]},"health_s":30}"#)
        try folder.write("fleet-incarnation", "1700000042\n")
        return folder
    }

    private func read(_ folder: StateFolder) throws -> StateBackup {
        try StateBackup.read(
            stateDirectory: folder.path, incarnationFile: folder.path + "/fleet-incarnation", gateway: "kitchen",
            now: Date(timeIntervalSince1970: 1_780_000_000))
    }

    @Test func theDocumentHoldsEveryStateFileAndReadsBackTheSame() throws {
        let backup = try read(try keptState())
        let text = backup.json.text
        #expect(text.contains(#""format":"gatt2mqtt-backup""#) && text.contains(#""format_version":1"#), "\(text)")
        #expect(text.contains(#""gateway":"kitchen""#) && text.contains(#""fleet_incarnation":1700000042"#))
        #expect(text.contains(#""identities":{"belt/00:11:22:33:44:55":"front-belt"}"#), "\(text)")
        #expect(text.contains(#""not_included":"the configuration file"#), "says what it does not hold")
        #expect(backup.adopted.count == 2 && backup.options["health_s"] == .number(30))
        #expect(try StateBackup.parse(Array(text.utf8)) == backup)
    }

    @Test func anEmptyStateDirectoryGivesAnEmptyBackup() throws {
        let backup = try read(try StateFolder())
        #expect(backup.adopted.isEmpty && backup.identities.isEmpty && backup.options.isEmpty)
        #expect(backup.fleetIncarnation == nil)
        #expect(try StateBackup.parse(Array(backup.json.text.utf8)) == backup)
    }

    /// Each part is checked as the gateway checks the file it comes from, and the whole is refused for any one.
    @Test(arguments: [
        ("format", #""zigbee2mqtt""#, "this is no gatt2mqtt backup"),
        ("format_version", "2", "made by a later gatt2mqtt (format 2)"),
        ("extra", "1", "'extra' is no member of a backup"),
        ("adopted", #"[{"address":"00:11:22:33:44:55","family":"toaster"}]"#, "'adopted' holds entries that name no"),
        (
            "adopted",
            #"[{"address":"00:11:22:33:44:55","family":"belt"},{"address":"00:11:22:33:44:55","family":"belt"}]"#,
            "'adopted' names a device twice"
        ),
        ("identities", #"{"belt/00:11:22:33:44:5":"front-belt"}"#, "'identities': 'belt/00:11:22:33:44:5' is not"),
        ("identities", #"{"belt/00:11:22:33:44:55":""}"#, "must be a text of 1 to 255 characters"),
        ("fleet_incarnation", "-3", "'fleet_incarnation' must be null or"),
        ("fleet_incarnation", "1.5", "'fleet_incarnation' must be null or"),
        ("options", "[1]", "'options' must be an object"),
        ("gateway", "7", "'gateway' must be a text"),
    ])
    func aBackupWithOnePartWrongIsRefusedWhole(member: String, value: String, message: String) throws {
        guard case .object(var members) = try read(try keptState()).json else {
            Issue.record("a backup is an object")
            return
        }
        guard let replacement = JSONValue.parse(Array(value.utf8)) else {
            Issue.record("\(value) is no JSON")
            return
        }
        members[member] = replacement
        #expect {
            _ = try StateBackup.parse(Array(JSONValue.object(members).text.utf8))
        } throws: { ($0 as? StateBackup.Failure)?.description.contains(message) == true }
    }

    @Test func anOversizedOrNonJSONBackupIsRefused() {
        #expect(throws: StateBackup.Failure.self) {
            try StateBackup.parse(Array(repeating: UInt8(ascii: " "), count: StateBackup.sizeLimit + 1))
        }
        #expect(throws: StateBackup.Failure.self) { try StateBackup.parse(Array("[1,2]".utf8)) }
        #expect(throws: StateBackup.Failure.self) { try StateBackup.parse(Array("{not json".utf8)) }
    }

    /// Staged, then applied as at a start: every file holds what the backup says (what it lacks is emptied), the
    /// staged file goes, and the incarnation is raised to the backup's but never lowered.
    @Test func aStagedRestoreMakesTheFolderHoldTheBackupAndIsThenGone() throws {
        let backup = try read(try keptState())
        let target = try StateFolder()
        try target.write("adopted.json", #"[{"address":"00:AA:BB:CC:DD:EE","family":"hr"}]"#)
        try target.write("options.json", #"{"log_level":"debug"}"#)
        try target.write("fleet-incarnation", "12\n")
        try PendingRestore.stage(backup, in: target.path)
        let staged = try #require(try PendingRestore.staged(in: target.path))
        #expect(staged == backup)
        try PendingRestore.apply(staged, to: target.path, incarnationFile: target.path + "/fleet-incarnation")
        #expect(try PendingRestore.staged(in: target.path) == nil)
        #expect(!target.names.contains("restore.json"))
        let restored = try read(target)
        #expect(restored.adopted == backup.adopted && restored.identities == backup.identities)
        #expect(restored.options == backup.options && restored.fleetIncarnation == 1_700_000_042)

        // A later start of a gateway that ran on: its own, higher incarnation stays.
        try target.write("fleet-incarnation", "1800000000\n")
        try PendingRestore.apply(backup, to: target.path, incarnationFile: target.path + "/fleet-incarnation")
        #expect(try target.read("fleet-incarnation") == "1800000000\n")
    }

    /// A file that cannot be replaced (here the third, the options: a full disk) leaves every file as it was, and the
    /// staged restore stays for the next start.
    @Test func aRestoreThatCannotWriteEveryFileChangesNone() throws {
        let backup = try read(try keptState())
        let target = try StateFolder()
        try target.write("adopted.json", "[]")
        try PendingRestore.stage(backup, in: target.path)
        #expect {
            try PendingRestore.apply(backup, to: target.path, incarnationFile: target.path + "/fleet-incarnation") {
                (file: String, bytes: [UInt8]) throws(DurableFile.Failure) in
                if file.hasSuffix("/options.json") { throw DurableFile.Failure(description: "No space left on device") }
                try DurableFile.replace(file, with: bytes)
            }
        } throws: { ($0 as? StateBackup.Failure)?.description == "nothing restored: No space left on device" }
        #expect(try target.read("adopted.json") == "[]", "put back")
        #expect(!target.names.contains("identities.json"), "written, then taken back")
        #expect(!target.names.contains("options.json") && !target.names.contains("fleet-incarnation"))
        #expect(target.names.contains("restore.json"))
    }

    /// A file in the way that is no regular file (a folder) is found before anything is written.
    @Test func aFolderInAFilesPlaceIsFoundBeforeAnythingIsWritten() throws {
        let backup = try read(try keptState())
        let target = try StateFolder()
        try target.write("adopted.json", "[]")
        try FileManager.default.createDirectory(
            atPath: target.path + "/options.json/kept", withIntermediateDirectories: true)
        #expect(throws: StateBackup.Failure.self) {
            try PendingRestore.apply(backup, to: target.path, incarnationFile: target.path + "/fleet-incarnation")
        }
        #expect(try target.read("adopted.json") == "[]")
        #expect(!target.names.contains("identities.json"))
    }
}
