import Foundation
import MQTT
import TestSupport
import Testing

@testable import Bridge

#if canImport(Glibc)
    import Glibc
#endif

/// The adoptions file (`<state directory>/adopted.json`) when it is not whole (issue #56, item 5): what it held
/// soundly is kept, what it did not is counted and named in one bounded line, the file is set aside rather than
/// overwritten, the broker's retained list fills in, and an empty result never replaces that list with `[]`.
@Suite(.timeLimit(.minutes(1))) struct AdoptionFileTests {
    private static let kept = #"[{"address":"00:11:22:33:44:51","family":"belt"}]"#

    private static func adopting(_ folder: String) -> (inout BridgeConfiguration) -> Void {
        { configuration in
            configuration.autoConnect = .adopted([])
            configuration.stateDirectory = folder
        }
    }

    private func makeFolder(adopted: String? = nil) throws -> StateFolder {
        let folder = try StateFolder()
        if let adopted { try folder.write("adopted.json", adopted) }
        return folder
    }

    /// Runs a gateway on `folder` whose broker holds `retained` as this gateway's adopted list from an earlier run.
    private func start(
        _ folder: StateFolder, retained: String?, _ body: (InMemoryGateway) async throws -> Void
    ) async throws {
        try await InMemoryWorld.with { world in
            if let retained { try world.publish("gatt2mqtt/test/adopted", retained, retain: true) }
            let gateway = try await InMemoryGateway.start(in: world, configure: Self.adopting(folder.path))
            try await withCleanUp({ await gateway.stop() }) { try await body(gateway) }
        }
    }

    /// Before: the gateway started with nothing adopted and no line, and published `[]` over the broker's retained
    /// list: the adoptions were lost everywhere. Now the list stays, and the file holds it again.
    @Test func aFileOfInvalidEntriesLeavesTheBrokersListAndSaysWhatItLeftOut() async throws {
        let damaged =
            #"[{"address":"nope\u001b[31m","family":"cpr"},{"address":"00:11:22:33:44:66","family":"toaster"},7]"#
        let folder = try makeFolder(adopted: damaged)
        try await start(folder, retained: Self.kept) { gateway in
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == Self.kept)
            let line = try #require(gateway.log.lines.first { $0.contains("the adoptions file holds entries") })
            #expect(line.hasPrefix("error "), "\(line)")
            #expect(line.contains("left_out=3") && line.contains("kept=0"), "\(line)")
            #expect(line.contains("entries=nope\u{1B}[31m, 00:11:22:33:44:66, 7"), "named as written: \(line)")
            #expect(line.contains("set_aside_as=\(folder.path)/adopted.json.damaged-"), "\(line)")
        }
        #expect(folder.setAside("adopted.json") == [damaged])
        #expect(try folder.read("adopted.json") == Self.kept)
    }

    /// Before: the invalid entries were dropped without a word. Now the sound ones are kept (and the file holds
    /// them at once), the others counted and named, and the broker's list adds what the file lost.
    @Test func aPartlyInvalidFileKeepsItsSoundEntries() async throws {
        let sound = #"{"address":"00:11:22:33:44:77","family":"cpr"}"#
        let damaged = "[\(sound),{\"address\":\"\(String(repeating: "x", count: 200))\",\"family\":\"cpr\"}]"
        let folder = try makeFolder(adopted: damaged)
        try await start(folder, retained: Self.kept) { gateway in
            let line = try #require(gateway.log.lines.first { $0.contains("the adoptions file holds entries") })
            #expect(line.contains("left_out=1") && line.contains("kept=1"), "\(line)")
            #expect(line.contains("entries=\(String(repeating: "x", count: 40))…"), "cut short: \(line)")
            #expect(line.count < 400, "bounded: \(line.count)")
            #expect(
                gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString
                    == #"[{"address":"00:11:22:33:44:51","family":"belt"},\#(sound)]"#)
        }
        #expect(folder.setAside("adopted.json") == [damaged])
        #expect(
            try folder.read("adopted.json")
                == #"[{"address":"00:11:22:33:44:51","family":"belt"},\#(sound)]"#)
    }

    /// Nothing sound in the file, nothing the gateway can adopt in the broker's list: `[]` is not published over that
    /// list, which is all that is left of the adoptions.
    @Test func anEmptyResultNeverReplacesANonEmptyRetainedList() async throws {
        let damaged = #"[{"address":"nope","family":"belt"}]"#
        let retained = #"[{"address":"00:11:22:33:44:51","family":"a family of a later release"}]"#
        let folder = try makeFolder(adopted: damaged)
        try await start(folder, retained: retained) { gateway in
            await gateway.log.waitForLine(containing: "the broker's retained list is left as it is")
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == retained)
        }
    }

    /// Before: a FIFO in the file's place held the start for good, with no line. Now it is refused with what it is,
    /// set aside, and the gateway starts from the broker's list.
    @Test func aFIFOInTheFilesPlaceIsRefusedAndTheGatewayStarts() async throws {
        let folder = try makeFolder()
        #expect(mkfifo(folder.path + "/adopted.json", 0o600) == 0)
        try await start(folder, retained: Self.kept) { gateway in
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == Self.kept)
            let line = try #require(gateway.log.lines.first { $0.contains("the adoptions file is no regular file") })
            #expect(line.contains("reason=it is a FIFO, not a regular file"), "\(line)")
        }
        #expect(folder.setAside("adopted.json") == ["(no regular file)"])
        #expect(try folder.read("adopted.json") == Self.kept)
    }

    /// A whole file is taken as it is, with no line and nothing set aside.
    @Test func aWholeFileIsTakenAsItIs() async throws {
        let folder = try makeFolder(adopted: Self.kept)
        try await start(folder, retained: "[]") { gateway in
            #expect(!gateway.log.lines.contains { $0.contains("adoptions file") })
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == Self.kept)
        }
        #expect(folder.setAside("adopted.json").isEmpty)
    }

    /// A crash between a write's temporary and its rename left `adopted.json.new-<hex>`: the gateway removes it at
    /// start, says so once, and the file beside it is read as ever.
    @Test func aTemporaryLeftByACrashIsRemovedAtStart() async throws {
        let folder = try makeFolder(adopted: Self.kept)
        let left = "adopted.json.new-0123456789abcdef"
        try folder.write(left, "[")
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-300)], ofItemAtPath: folder.path + "/" + left)
        try await start(folder, retained: nil) { gateway in
            let line = try #require(gateway.log.lines.first { $0.contains("an interrupted write left") })
            #expect(line.contains("files=\(left)"), "\(line)")
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == Self.kept)
        }
        #expect(!folder.names.contains(left))
    }
}
