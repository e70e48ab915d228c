import Foundation
import MQTT
import TestSupport
import Testing

/// mosquitto → gatt2mqtt → BlueZ → a virtual Cycling Speed and Cadence sensor (`gatt2mqtt-sim csc`, encoding from
/// the specification), served by the declaration shipped with the daemon, with no Swift of its own: issue #59's
/// declared families, in every world.
@Suite(.serialized)
struct DeclaredDeviceEndToEndTests {
    @Test(arguments: BlueZWorld.enabled)
    func aSpeedAndCadenceSensorIsServedByItsShippedDeclaration(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            // A declarations folder with a file the reader refuses (no `match`): left out, said with its line, and
            // every other family served all the same.
            let folder = world.stateFolder + "/devices.d"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try "family: lab\nlabel: Lab\ncharacteristics: []\n".write(
                toFile: folder + "/broken.yaml", atomically: true, encoding: .utf8)
            let sensor = try await world.startSimulator(["csc", "--interval-ms", "250"])
            let id = try sensor.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let bridge = try await world.startBridge(extraEnvironment: ["GATT2MQTT_DEVICES_DECLARATIONS": folder])
            try await bridge.waitForLine(containing: "declaration left out: \(folder)/broken.yaml:")

            try await recorder.waitFor("csc/\(id)/connection") { $0.payloadString == "connected" }
            // Read once at connect, retained.
            #expect(try await recorder.waitFor("csc/\(id)/location").payloadString == "left_crank")
            #expect(try await recorder.waitFor("csc/\(id)/wheel_supported").payloadString == "true")
            #expect(try await recorder.waitFor("csc/\(id)/crank_supported").payloadString == "true")
            #expect(try await recorder.waitFor("csc/\(id)/multiple_locations_supported").payloadString == "false")
            // What every declared device gets: its battery and its Device Information.
            #expect(try await recorder.waitFor("csc/\(id)/battery").payloadString == #"{"level":80}"#)
            let info = try await recorder.waitFor("csc/\(id)/info") { ($0.payloadString ?? "").contains("model") }
            #expect(info.payloadString?.contains(#""manufacturer":"gatt2mqtt""#) == true, "\(info.payloadString ?? "")")
            #expect(info.payloadString?.contains(#""model":"CSC-SIM""#) == true)

            // Each measurement: the wheel turned twice and the crank once per 256/1024 s since the subscription.
            let measurement = try await recorder.waitFor("csc/\(id)/measurement")
            #expect(!measurement.retain, "a stream")
            let fields = try #require(
                try JSONSerialization.jsonObject(with: Data(measurement.payload)) as? [String: Double],
                "\(measurement.payloadString ?? "")")
            let turns = try #require(fields["crank_revolutions"])
            let time = (turns * 256).truncatingRemainder(dividingBy: 65536) / 1024
            #expect(
                fields == [
                    "wheel_revolutions": 2 * turns, "wheel_event_time": time, "crank_revolutions": turns,
                    "crank_event_time": time,
                ])

            // Bytes the declaration does not explain (flags say wheel data, none follows): counted and logged.
            let lines = bridge.lineCount
            try sensor.send(line: "raw 01")
            try await bridge.waitForLine(containing: "malformed notification", after: lines)

            // Home Assistant: the device's config names an entity per value of the declaration.
            let config = try await recorder.waitFor("homeassistant/device/fleet_csc_\(id)/config")
            #expect(config.payloadString?.contains("measurement_wheel_revolutions") == true)

            // The SC Control Point: Set Cumulative Value written (01 and a uint32), answered by its indication; the
            // measurements count on from there.
            var mark = recorder.mark
            try recorder.publish("csc/\(id)/cmd/set_wheel_revolutions", #"{"revolutions":100000}"#)
            let done = try await recorder.waitFor("csc/\(id)/reply", after: mark)
            #expect(done.payloadString?.contains(#""ok":true"#) == true, "\(done.payloadString ?? "")")
            try await sensor.waitForLine { $0 == "WRITE 00002a55-0000-1000-8000-00805f9b34fb 01a0860100" }
            try await recorder.waitFor("csc/\(id)/measurement", after: mark) { message in
                let fields = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Double]
                return fields?["wheel_revolutions"] ?? 0 >= 100_000
            }
            // A sensor with one location refuses Update Sensor Location: the reply names the result.
            mark = recorder.mark
            try recorder.publish("csc/\(id)/cmd/update_location", #"{"location":4}"#)
            let refused = try await recorder.waitFor("csc/\(id)/reply", after: mark)
            #expect(
                refused.payloadString?.contains("op_code_not_supported (2)") == true, "\(refused.payloadString ?? "")")
            // Out of its range: refused before the device is asked, never written.
            let writes = sensor.lines.filter { $0.text.hasPrefix("WRITE") }.count
            mark = recorder.mark
            try recorder.publish("csc/\(id)/cmd/update_location", #"{"location":17}"#)
            let bad = try await recorder.waitFor("csc/\(id)/reply", after: mark)
            #expect(bad.payloadString?.contains("invalid_value") == true, "\(bad.payloadString ?? "")")
            #expect(sensor.lines.filter { $0.text.hasPrefix("WRITE") }.count == writes)
            await recorder.stop()
        }
    }
}
