import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The daemon started on a state directory someone else has written to (issue #56, item 5): FIFOs in the place of
/// state files, links planted beside them, files that are damaged. Before, a FIFO held the start for good with no
/// line (the gateway never ran), a link made the gateway write its target, an adoptions file of invalid entries
/// replaced the broker's retained list with `[]`, and a damaged options file stopped the daemon (status 78). Now the
/// gateway starts and serves its adopted belt, says each once in one line, sets each file aside, and writes no link.
@Suite(.serialized)
struct StateFileEndToEndTests {
    @Test(arguments: BlueZWorld.enabled)
    func aStartOnFIFOsAndPlantedLinksRunsAndWritesNoLink(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let state = try stateDirectory(of: world)
            let victim = world.stateFolder + "/victim"
            try "untouched".write(toFile: victim, atomically: true, encoding: .utf8)
            for name in ["options.json", "identities.json"] { #expect(mkfifo(state + "/" + name, 0o600) == 0) }
            for name in ["adopted.json.new", "fleet-incarnation.new"] {
                try FileManager.default.createSymbolicLink(atPath: state + "/" + name, withDestinationPath: victim)
            }
            let (belt, recorder, list) = try await beltAdoptedEarlier(in: world)

            let gateway = try await world.startBridge(extraArguments: ["--auto-connect", "adopted"])
            try await recorder.waitFor("belt/\(try belt.simulatedID)/connection") { $0.payloadString == "connected" }
            #expect(try String(contentsOfFile: victim, encoding: .utf8) == "untouched")
            #expect(try String(contentsOfFile: state + "/adopted.json", encoding: .utf8) == list)
            for name in ["adopted.json", "fleet-incarnation"] { #expect(try type(state + "/" + name) == .typeRegular) }
            expectOneLine(gateway, "cannot use the options kept over MQTT", "it is a FIFO, not a regular file")
            expectOneLine(gateway, "the identities file is no regular file", "reason=it is a FIFO, not a regular file")
            #expect(try setAside(in: state).sorted() == ["identities.json", "options.json"])
            expectEveryLineOneEntry(gateway)
            await recorder.stop()
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func damagedAdoptionsAndOptionsLeaveTheBrokersListAndTheFilesSettings(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let state = try stateDirectory(of: world)
            let adopted =
                #"[{"address":"nope\u001b[2J","family":"belt"},{"address":"00:11:22:33:44:66","family":"toaster"}]"#
            try adopted.write(toFile: state + "/adopted.json", atomically: true, encoding: .utf8)
            // A sound value beside one this release refuses: the options are left out whole, as the file would be.
            let options = #"{"health_s": 7, "devices": {"speed": 3}}"#
            try options.write(toFile: state + "/options.json", atomically: true, encoding: .utf8)
            let (belt, recorder, list) = try await beltAdoptedEarlier(in: world)

            let start = recorder.mark
            let gateway = try await world.startBridge(extraArguments: ["--auto-connect", "adopted"])
            try await recorder.waitFor("belt/\(try belt.simulatedID)/connection") { $0.payloadString == "connected" }
            let info = try await recorder.waitFor("gatt2mqtt/test/info", after: start)
            let settings = info.payloadString ?? ""
            #expect(
                settings.contains(#""health_s":"#) && !settings.contains(#""health_s":7"#), "the default: \(settings)")
            let snapshot = try await TopicRecorder(world: world)
            #expect(try await snapshot.retainedAtSubscription()["gatt2mqtt/test/adopted"] == list, "not []")
            await snapshot.stop()
            #expect(try String(contentsOfFile: state + "/adopted.json", encoding: .utf8) == list)
            expectOneLine(gateway, "the adoptions file holds entries that name no device", "left_out=2")
            expectOneLine(gateway, "cannot use the options kept over MQTT", "devices.speed")
            let contents = try setAside(in: state).map { name in
                try String(contentsOfFile: state + "/" + (try damagedName(name, in: state)), encoding: .utf8)
            }
            #expect(Set(contents) == [adopted, options])
            expectEveryLineOneEntry(gateway)
            await recorder.stop()
        }
    }

    // MARK: Helpers

    /// The gateway's state directory in this world (`TestWorld.launch`), made now so that the test can fill it.
    private func stateDirectory(of world: TestWorld) throws -> String {
        let folder = world.stateFolder + "/gatt2mqtt"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A belt, and the retained adopted list an earlier run of the gateway left naming it (waited for on the broker).
    private func beltAdoptedEarlier(in world: TestWorld) async throws -> (ManagedProcess, TopicRecorder, String) {
        let belt = try await world.startSimulator(["belt"])
        let recorder = try await TopicRecorder(world: world)
        let list = #"[{"address":"\#(try belt.simulatedAddress)","family":"belt"}]"#
        try recorder.publish("gatt2mqtt/test/adopted", list, retain: true)
        try await recorder.waitFor("gatt2mqtt/test/adopted") { $0.payloadString == list }
        return (belt, recorder, list)
    }

    /// The state files set aside, by the name they had.
    private func setAside(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).compactMap { name in
            name.range(of: ".damaged-").map { String(name[..<$0.lowerBound]) }
        }
    }

    private func damagedName(_ name: String, in folder: String) throws -> String {
        try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasPrefix(name + ".damaged-") })
    }

    private func type(_ path: String) throws -> FileAttributeType? {
        try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
    }

    private func expectOneLine(
        _ gateway: ManagedProcess, _ text: String, _ detail: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let lines = gateway.lines.map(\.text).filter { $0.contains(text) }
        #expect(lines.count == 1, "one line: \(lines)", sourceLocation: sourceLocation)
        #expect(lines.allSatisfy { $0.contains(detail) }, "\(lines)", sourceLocation: sourceLocation)
    }

    private func expectEveryLineOneEntry(_ gateway: ManagedProcess) {
        let split = gateway.lines.map(\.text).filter { !RogueWorldTests.isLogEntry($0) }
        #expect(split.isEmpty, "every line the gateway wrote is one log entry: \(split.prefix(5))")
    }
}
