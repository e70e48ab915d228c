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

    private func makeFolder(adopted: String? = nil) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-adoption-file-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if let adopted { try Data(adopted.utf8).write(to: URL(fileURLWithPath: folder + "/adopted.json")) }
        return folder
    }

    /// The copies the gateway set aside, by their contents.
    private func setAside(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { $0.hasPrefix("adopted.json.damaged-") }.sorted().map {
            // Read only when regular: opening the FIFO set aside would wait for a writer.
            let type = try? FileManager.default.attributesOfItem(atPath: folder + "/" + $0)[.type] as? FileAttributeType
            return type == .typeRegular
                ? (try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) ?? "" : "(no regular file)"
        }
    }

    /// Runs a gateway on `folder` whose broker holds `retained` as this gateway's adopted list from an earlier run.
    private func start(
        _ folder: String, retained: String?, _ body: (InMemoryGateway) async throws -> Void
    ) async throws {
        try await InMemoryWorld.with { world in
            if let retained { try world.publish("gatt2mqtt/test/adopted", retained, retain: true) }
            let gateway = try await InMemoryGateway.start(in: world, configure: Self.adopting(folder))
            try await withCleanUp({ await gateway.stop() }) { try await body(gateway) }
        }
    }

    /// Before: the gateway started with nothing adopted and no line, and published `[]` over the broker's retained
    /// list: the adoptions were lost everywhere. Now the list stays, and the file holds it again.
    @Test func aFileOfInvalidEntriesLeavesTheBrokersListAndSaysWhatItLeftOut() async throws {
        let damaged =
            #"[{"address":"nope\u001b[31m","family":"cpr"},{"address":"00:11:22:33:44:66","family":"toaster"},7]"#
        let folder = try makeFolder(adopted: damaged)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await start(folder, retained: Self.kept) { gateway in
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == Self.kept)
            let line = try #require(gateway.log.lines.first { $0.contains("the adoptions file holds entries") })
            #expect(line.hasPrefix("error "), "\(line)")
            #expect(line.contains("left_out=3") && line.contains("kept=0"), "\(line)")
            #expect(line.contains("entries=nope\u{1B}[31m, 00:11:22:33:44:66, 7"), "named as written: \(line)")
            #expect(line.contains("set_aside_as=\(folder)/adopted.json.damaged-"), "\(line)")
        }
        #expect(setAside(in: folder) == [damaged])
        #expect(try String(contentsOfFile: folder + "/adopted.json", encoding: .utf8) == Self.kept)
    }

    /// Before: the invalid entries were dropped without a word. Now the sound ones are kept (and the file holds
    /// them at once), the others counted and named, and the broker's list adds what the file lost.
    @Test func aPartlyInvalidFileKeepsItsSoundEntries() async throws {
        let sound = #"{"address":"00:11:22:33:44:77","family":"cpr"}"#
        let damaged = "[\(sound),{\"address\":\"\(String(repeating: "x", count: 200))\",\"family\":\"cpr\"}]"
        let folder = try makeFolder(adopted: damaged)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await start(folder, retained: Self.kept) { gateway in
            let line = try #require(gateway.log.lines.first { $0.contains("the adoptions file holds entries") })
            #expect(line.contains("left_out=1") && line.contains("kept=1"), "\(line)")
            #expect(line.contains("entries=\(String(repeating: "x", count: 40))…"), "cut short: \(line)")
            #expect(line.count < 400, "bounded: \(line.count)")
            #expect(
                gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString
                    == #"[{"address":"00:11:22:33:44:51","family":"belt"},\#(sound)]"#)
        }
        #expect(setAside(in: folder) == [damaged])
        #expect(
            try String(contentsOfFile: folder + "/adopted.json", encoding: .utf8)
                == #"[{"address":"00:11:22:33:44:51","family":"belt"},\#(sound)]"#)
    }

    /// Nothing sound in the file, nothing the gateway can adopt in the broker's list: `[]` is not published over that
    /// list, which is all that is left of the adoptions.
    @Test func anEmptyResultNeverReplacesANonEmptyRetainedList() async throws {
        let damaged = #"[{"address":"nope","family":"belt"}]"#
        let retained = #"[{"address":"00:11:22:33:44:51","family":"a family of a later release"}]"#
        let folder = try makeFolder(adopted: damaged)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await start(folder, retained: retained) { gateway in
            await gateway.log.waitForLine(containing: "the broker's retained list is left as it is")
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == retained)
        }
    }

    /// Before: a FIFO in the file's place held the start for good, with no line. Now it is refused with what it is,
    /// set aside, and the gateway starts from the broker's list.
    @Test func aFIFOInTheFilesPlaceIsRefusedAndTheGatewayStarts() async throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(mkfifo(folder + "/adopted.json", 0o600) == 0)
        try await start(folder, retained: Self.kept) { gateway in
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == Self.kept)
            let line = try #require(gateway.log.lines.first { $0.contains("the adoptions file is no regular file") })
            #expect(line.contains("reason=it is a FIFO, not a regular file"), "\(line)")
        }
        #expect(setAside(in: folder) == ["(no regular file)"])
        #expect(try String(contentsOfFile: folder + "/adopted.json", encoding: .utf8) == Self.kept)
    }

    /// A whole file is taken as it is, with no line and nothing set aside.
    @Test func aWholeFileIsTakenAsItIs() async throws {
        let folder = try makeFolder(adopted: Self.kept)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await start(folder, retained: "[]") { gateway in
            #expect(!gateway.log.lines.contains { $0.contains("adoptions file") })
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == Self.kept)
        }
        #expect(setAside(in: folder).isEmpty)
    }
}
