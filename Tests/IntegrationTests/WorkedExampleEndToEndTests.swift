import Foundation
import MQTT
import TestSupport
import Testing

/// docs/devices.md's worked example followed as a user follows it (issue #59): the page's own declaration of a lab
/// thermometer with its maker's UUIDs, copied out of the page into a declarations folder, checked, loaded at start,
/// and its device (`gatt2mqtt-sim thermometer`, built from the page's description in words, not from the declaration)
/// adopted through a join window and bridged as the page says, with no code for it in the gateway.
@Suite(.serialized)
struct WorkedExampleEndToEndTests {
    private static let page = ProjectPaths.root + "/docs/devices.md"
    private static let controlPoint = "0000aa04-1234-5678-9abc-def012345678"

    @Test func theLabThermometerIsBridgedAsDocsDevicesSays() async throws {
        let page = try String(contentsOfFile: Self.page, encoding: .utf8)
        let declaration = try #require(Self.declaration(in: page), "docs/devices.md: no thermometer.yaml block")
        let checked = try #require(Self.checkLine(in: page), "docs/devices.md: no --check-declaration line")
        try await TestWorld.with { world in
            let folder = world.stateFolder + "/devices.d"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let file = folder + "/thermometer.yaml"
            try declaration.write(toFile: file, atomically: true, encoding: .utf8)

            // 1. Checked: the page's line, for this file.
            let check = try ManagedProcess.launch(
                ProjectPaths.binary("gatt2mqtt"), arguments: ["--check-declaration", file])
            #expect(try await check.waitForExit(timeout: .seconds(30)) == .exited(0))
            #expect(check.lines.map(\.text) == ["\(file): \(checked)"])

            // 2. Loaded at start: the log names the family.
            let thermometer = try await world.startSimulator(["thermometer", "--place", "outdoor", "--samples", "7"])
            let id = try thermometer.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let bridge = try await world.startBridge(
                extraArguments: ["--auto-connect", "adopted"],
                extraEnvironment: ["GATT2MQTT_DEVICES_DECLARATIONS": folder])
            let families = try await bridge.waitForLine(containing: "declared families: ")
            let named = families.components(separatedBy: "declared families: ").last ?? ""
            #expect(
                named.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.contains("thermo"),
                "\(families)")

            // 3. Adopted as any device, through a join window.
            try recorder.publish("gatt2mqtt/test/request/permit_join", #"{"duration_s":60}"#)
            try await recorder.waitFor("thermo/\(id)/connection") { $0.payloadString == "connected" }

            // 4. Its topics: what it reads at connect, retained; each reading, not retained.
            #expect(try await recorder.waitFor("thermo/\(id)/place").payloadString == "outdoor")
            #expect(try await recorder.waitFor("thermo/\(id)/samples").payloadString == "7")
            #expect(try await recorder.waitFor("thermo/\(id)/battery").payloadString == #"{"level":60}"#)
            var mark = recorder.mark
            try thermometer.send(line: "send")
            let reading = try await recorder.waitFor("thermo/\(id)/reading", after: mark)
            #expect(reading.payloadString == #"{"temperature":21.54,"humidity":46.65}"#)
            let late = try await TopicRecorder(world: world)
            let held = try await late.retainedAtSubscription()
            await late.stop()
            #expect(held["thermo/\(id)/place"] == "outdoor" && held["thermo/\(id)/samples"] == "7")
            #expect(held["thermo/\(id)/reading"] == nil, "a reading is not retained")

            // The calibration: written as the page says, taken once the thermometer indicates success; the next
            // reading is calibrated.
            mark = recorder.mark
            try recorder.publish("thermo/\(id)/cmd/calibrate", #"{"offset":-1.5}"#)
            let done = try await recorder.waitFor("thermo/\(id)/reply", after: mark)
            #expect(done.payloadString?.contains(#""ok":true"#) == true, "\(done.payloadString ?? "")")
            try await thermometer.waitForLine { $0 == "WRITE \(Self.controlPoint) 016aff" }
            mark = recorder.mark
            try thermometer.send(line: "send")
            let calibrated = try await recorder.waitFor("thermo/\(id)/reading", after: mark)
            #expect(calibrated.payloadString == #"{"temperature":20.04,"humidity":46.65}"#)
            // Out of the declared range: refused with the page's words, and nothing written.
            let writes = thermometer.lines.filter { $0.text.hasPrefix("WRITE") }.count
            mark = recorder.mark
            try recorder.publish("thermo/\(id)/cmd/calibrate", #"{"offset":11}"#)
            let refused = try await recorder.waitFor("thermo/\(id)/reply", after: mark)
            #expect(
                refused.payloadString?.contains("'offset' must be from -10 to 10") == true,
                "\(refused.payloadString ?? "")")
            #expect(thermometer.lines.filter { $0.text.hasPrefix("WRITE") }.count == writes)

            // 5. Home Assistant: a device "Lab thermometer" with an entity per value and the command.
            let config = try await recorder.waitFor("homeassistant/device/fleet_thermo_\(id)/config")
            let text = config.payloadString ?? ""
            for expected in [
                #""Lab thermometer""#, "reading_temperature", "reading_humidity", "\"place\"", "\"samples\"",
                "\"calibrate\"", "\"battery\"",
            ] {
                #expect(text.contains(expected), "\(expected) in \(text)")
            }
            await recorder.stop()
        }
    }

    /// The YAML block that follows the page's `# /etc/gatt2mqtt/devices.d/thermometer.yaml` line.
    static func declaration(in page: String) -> String? {
        guard let start = page.range(of: "```yaml\n# /etc/gatt2mqtt/devices.d/thermometer.yaml\n"),
            let end = page.range(of: "\n```", range: start.upperBound..<page.endIndex)
        else { return nil }
        return String(page[start.upperBound..<end.lowerBound]) + "\n"
    }

    /// What the page says `--check-declaration` prints after the file's path.
    static func checkLine(in page: String) -> String? {
        guard let start = page.range(of: "`…/thermometer.yaml: "),
            let end = page.range(of: "`", range: start.upperBound..<page.endIndex)
        else { return nil }
        return String(page[start.upperBound..<end.lowerBound])
    }
}
