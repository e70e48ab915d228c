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
            // A stream: nothing retained for a client subscribing now (the location is).
            let late = try await TopicRecorder(world: world)
            let held = try await late.retainedAtSubscription()
            await late.stop()
            #expect(held["csc/\(id)/measurement"] == nil && held["csc/\(id)/location"] == "left_crank")
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

            let controlPoint = "00002a55-0000-1000-8000-00805f9b34fb"
            // A sensor with one location refuses Update Sensor Location (03 and a uint8): the reply names the result.
            var mark = recorder.mark
            try recorder.publish("csc/\(id)/cmd/update_location", #"{"location":4}"#)
            let refused = try await recorder.waitFor("csc/\(id)/reply", after: mark)
            #expect(
                refused.payloadString?.contains("op_code_not_supported (2)") == true, "\(refused.payloadString ?? "")")
            let writes = try await Self.writes(of: sensor, through: "WRITE \(controlPoint) 0304")
            // Out of its range: refused before the device is asked, never written.
            mark = recorder.mark
            try recorder.publish("csc/\(id)/cmd/update_location", #"{"location":17}"#)
            let bad = try await recorder.waitFor("csc/\(id)/reply", after: mark)
            #expect(bad.payloadString?.contains("invalid_value") == true, "\(bad.payloadString ?? "")")

            // The SC Control Point: Set Cumulative Value written (01 and a uint32), answered by its indication; the
            // measurements count on from there. The one write since the refused location.
            mark = recorder.mark
            try recorder.publish("csc/\(id)/cmd/set_wheel_revolutions", #"{"revolutions":100000}"#)
            let done = try await recorder.waitFor("csc/\(id)/reply", after: mark)
            #expect(done.payloadString?.contains(#""ok":true"#) == true, "\(done.payloadString ?? "")")
            let setCumulative = "WRITE \(controlPoint) 01a0860100"
            #expect(try await Self.writes(of: sensor, through: setCumulative) == writes + [setCumulative])
            try await recorder.waitFor("csc/\(id)/measurement", after: mark) { message in
                let fields = try? JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Double]
                return fields?["wheel_revolutions"] ?? 0 >= 100_000
            }
            await recorder.stop()
        }
    }

    /// A weather sensor (`gatt2mqtt-sim environment`, encoding from the specification) served by the shipped
    /// Environmental Sensing declaration: its three polled readings at connect, retained, decoded with their decimals
    /// exact; cleared when it goes away, as polled state would lie. BlueZoo only (the real bluetoothd runs the speed and
    /// cadence sensor above).
    @Test func aWeatherSensorIsReadAtConnectAndClearedWhenItGoes() async throws {
        try await TestWorld.with { world in
            let sensor = try await world.startSimulator(["environment", "--temperature=-512", "--pressure", "987654"])
            let id = try sensor.simulatedID
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            try await recorder.waitFor("environment/\(id)/connection") { $0.payloadString == "connected" }
            #expect(try await recorder.waitFor("environment/\(id)/temperature").payloadString == "-5.12")
            #expect(try await recorder.waitFor("environment/\(id)/humidity").payloadString == "46.65")
            #expect(try await recorder.waitFor("environment/\(id)/pressure").payloadString == "98765.4")
            #expect(try await recorder.waitFor("environment/\(id)/battery").payloadString == #"{"level":70}"#)
            // Retained: what a client subscribing now gets at once.
            let late = try await TopicRecorder(world: world)
            let held = try await late.retainedAtSubscription()
            await late.stop()
            #expect(held["environment/\(id)/temperature"] == "-5.12" && held["environment/\(id)/pressure"] == "98765.4")
            // Each read as the simulator encoded it: the bytes behind the decimals above.
            try await sensor.waitForLine { $0 == "READ 00002a6e-0000-1000-8000-00805f9b34fb 00fe" }
            try await sensor.waitForLine { $0 == "READ 00002a6d-0000-1000-8000-00805f9b34fb 06120f00" }
            // Home Assistant: the temperature with its device class, from the declaration.
            let config = try await recorder.waitFor("homeassistant/device/fleet_environment_\(id)/config")
            #expect(config.payloadString?.contains(#""device_class":"temperature""#) == true)

            // Gone: the polled readings are cleared (an empty retained payload), not left to lie.
            let mark = recorder.mark
            sensor.send(SIGKILL)
            _ = try await sensor.waitForExit()
            try await recorder.waitFor("environment/\(id)/connection", after: mark) {
                $0.payloadString == "disconnected"
            }
            for leaf in ["temperature", "humidity", "pressure"] {
                try await recorder.waitFor("environment/\(id)/\(leaf)", after: mark) { $0.payload.isEmpty }
            }
            await recorder.stop()
        }
    }

    /// A bathroom scale (`gatt2mqtt-sim scale`, encoding from the specification) served by the shipped Weight Scale
    /// declaration: the weighing it indicates when the gateway subscribes, with its time stamp, user, BMI and height,
    /// decoded exactly and retained (the last weighing is state); a new weighing replaces it; bytes the declaration
    /// does not explain are counted and logged. BlueZoo only (the real bluetoothd runs the speed and cadence sensor).
    @Test func aScalesWeighingIsIndicatedDecodedAndRetained() async throws {
        try await TestWorld.with { world in
            let scale = try await world.startSimulator([
                "scale", "--grams", "69600", "--at", "2026-12-03T21:05:30", "--user", "1", "--height-mm", "1750",
            ])
            let id = try scale.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let bridge = try await world.startBridge()
            try await recorder.waitFor("scale/\(id)/connection") { $0.payloadString == "connected" }
            let measurement = try await recorder.waitFor("scale/\(id)/measurement")
            // 69.6 kg (13 920 × 5 g), BMI 69.6 / 1.75² = 22.7, as the simulator encoded them.
            try await scale.waitForLine { $0 == "INDICATE 0e6036ea070c0315051e01e300d606" }
            #expect(
                try Self.numbers(measurement) == [
                    "weight": 69.6, "year": 2026, "month": 12, "day": 3, "hours": 21, "minutes": 5, "seconds": 30,
                    "user": 1, "bmi": 22.7, "height": 1.75,
                ])
            #expect(try await recorder.waitFor("scale/\(id)/battery").payloadString == #"{"level":90}"#)
            // Retained: a client subscribing now gets the last weighing at once.
            let late = try await TopicRecorder(world: world)
            let held = try await late.retainedAtSubscription()
            await late.stop()
            #expect(held["scale/\(id)/measurement"] == measurement.payloadString)
            // Home Assistant: the weight with its device class, from the declaration.
            let config = try await recorder.waitFor("homeassistant/device/fleet_scale_\(id)/config")
            #expect(config.payloadString?.contains(#""device_class":"weight""#) == true)

            // A new weighing: 70 kg, BMI 22.9.
            var mark = recorder.mark
            try scale.send(line: "weigh 70000")
            let next = try await recorder.waitFor("scale/\(id)/measurement", after: mark)
            #expect(try Self.numbers(next)["weight"] == 70 && Self.numbers(next)["bmi"] == 22.9)

            // Flags that promise a time stamp, a user and BMI with no bytes for them: counted and logged, and the last
            // weighing stays what it was.
            mark = recorder.mark
            let lines = bridge.lineCount
            try scale.send(line: "raw 0e6036")
            try await bridge.waitForLine(containing: "malformed notification", after: lines)
            #expect(recorder.messages(on: "scale/\(id)/measurement", after: mark).isEmpty)
            await recorder.stop()
        }
    }

    /// A smart trainer (`gatt2mqtt-sim trainer`, encoding from the specification) served by the shipped Fitness Machine
    /// declaration: its indoor bike data decoded, and its control point as FTMS has it. A target before control is
    /// written and refused by the trainer, and the reply names its result; with control, the trainer holds the target
    /// power and resistance it was given; a power above the trainer's maximum is its refusal, one above the
    /// declaration's range is the gateway's, before any write. BlueZoo only.
    @Test func aSmartTrainerStreamsAndTakesTargetsThroughItsControlPoint() async throws {
        try await TestWorld.with { world in
            let trainer = try await world.startSimulator(["trainer", "--interval-ms", "250", "--max-power", "1000"])
            let id = try trainer.simulatedID
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            let topic = "fitness_machine/\(id)"
            try await recorder.waitFor("\(topic)/connection") { $0.payloadString == "connected" }
            let data = try Self.numbers(try await recorder.waitFor("\(topic)/indoor_bike"))
            #expect(
                data["speed"] == 30 && data["cadence"] == 90 && data["power"] == 150 && data["resistance_level"] == 5,
                "\(data)")
            #expect(data["total_distance"] != nil && data["elapsed_time"] != nil, "\(data)")
            let controlPoint = "00002ad9-0000-1000-8000-00805f9b34fb"

            // A target before control: written, refused by the trainer (5, control not permitted).
            let refused = try await command(recorder, "\(topic)/cmd/set_target_power", #"{"watts":250}"#)
            #expect(refused.contains("control_not_permitted (5)"), "\(refused)")
            try await trainer.waitForLine { $0 == "WRITE \(controlPoint) 05fa00" }

            // Control, then targets the trainer holds.
            #expect(try await command(recorder, "\(topic)/cmd/request_control", "{}").contains(#""ok":true"#))
            var mark = recorder.mark
            #expect(
                try await command(recorder, "\(topic)/cmd/set_target_power", #"{"watts":250}"#).contains(#""ok":true"#))
            try await recorder.waitFor("\(topic)/indoor_bike", after: mark) { (try? Self.numbers($0))?["power"] == 250 }
            mark = recorder.mark
            #expect(
                try await command(recorder, "\(topic)/cmd/set_target_resistance", #"{"level":12.5}"#)
                    .contains(#""ok":true"#))
            try await trainer.waitForLine { $0 == "WRITE \(controlPoint) 047d" }
            try await recorder.waitFor("\(topic)/indoor_bike", after: mark) {
                (try? Self.numbers($0))?["resistance_level"] == 12
            }

            // Above the trainer's 1000 W: its refusal (3, invalid parameter). Above the declaration's 4000 W: the
            // gateway's, and nothing written.
            let tooMuch = try await command(recorder, "\(topic)/cmd/set_target_power", #"{"watts":1500}"#)
            #expect(tooMuch.contains("invalid_parameter (3)"), "\(tooMuch)")
            let writes = try await Self.writes(of: trainer, through: "WRITE \(controlPoint) 05dc05")
            let outOfRange = try await command(recorder, "\(topic)/cmd/set_target_power", #"{"watts":5000}"#)
            #expect(outOfRange.contains("invalid_value"), "\(outOfRange)")

            // Stopped: no speed, no power. The one write since the trainer's refusal.
            mark = recorder.mark
            #expect(try await command(recorder, "\(topic)/cmd/stop", "{}").contains(#""ok":true"#))
            let stop = "WRITE \(controlPoint) 0801"
            #expect(try await Self.writes(of: trainer, through: stop) == writes + [stop])
            try await recorder.waitFor("\(topic)/indoor_bike", after: mark) {
                let fields = try? Self.numbers($0)
                return fields?["speed"] == 0 && fields?["power"] == 0
            }
            await recorder.stop()
        }
    }

    /// A crank power meter (`gatt2mqtt-sim power`, encoding from the specification) served by the shipped Cycling
    /// Power declaration: its measurements decoded (power, the left pedal's balance, wheel and crank data, energy), its
    /// location read once and retained, and its control point: a crank length it takes, one it refuses (3), one the
    /// declaration refuses before any write, and the wheel revolutions set. BlueZoo only.
    @Test func aPowerMeterMeasuresAndTakesItsCrankLength() async throws {
        try await TestWorld.with { world in
            let meter = try await world.startSimulator(["power", "--interval-ms", "250", "--watts", "240"])
            let id = try meter.simulatedID
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            let topic = "cycling_power/\(id)"
            try await recorder.waitFor("\(topic)/connection") { $0.payloadString == "connected" }
            #expect(try await recorder.waitFor("\(topic)/location").payloadString == "left_crank")
            let measurement = try Self.object(try await recorder.waitFor("\(topic)/measurement"))
            let turns = try #require(measurement["crank_revolutions"] as? Double, "\(measurement)")
            #expect(measurement["power"] as? Double == 240 && measurement["pedal_power_balance"] as? Double == 50)
            #expect(measurement["balance_reference_left"] as? Bool == true, "\(measurement)")
            #expect(measurement["wheel_revolutions"] as? Double == 3 * turns)
            #expect(measurement["crank_event_time"] as? Double == turns / 4, "a turn every 256/1024 s")
            #expect(measurement["accumulated_energy"] as? Double == (240 * turns / 4 / 1000).rounded(.down))
            let config = try await recorder.waitFor("homeassistant/device/fleet_cycling_power_\(id)/config")
            #expect(config.payloadString?.contains(#""device_class":"power""#) == true)

            let controlPoint = "00002a66-0000-1000-8000-00805f9b34fb"
            // 172.5 mm is 345 half-millimetres: written, taken.
            let taken = try await command(recorder, "\(topic)/cmd/set_crank_length", #"{"millimetres":172.5}"#)
            #expect(taken.contains(#""ok":true"#), "\(taken)")
            try await meter.waitForLine { $0 == "WRITE \(controlPoint) 045901" }
            // 250 mm: the meter's refusal. 40 000 mm: the declaration's, and nothing written.
            let long = try await command(recorder, "\(topic)/cmd/set_crank_length", #"{"millimetres":250}"#)
            #expect(long.contains("invalid_parameter (3)"), "\(long)")
            let writes = try await Self.writes(of: meter, through: "WRITE \(controlPoint) 04f401")
            let outOfRange = try await command(recorder, "\(topic)/cmd/set_crank_length", #"{"millimetres":40000}"#)
            #expect(outOfRange.contains("invalid_value"), "\(outOfRange)")
            // The wheel counts on from what it was set to; the one write since the meter's refusal.
            let mark = recorder.mark
            let set = try await command(recorder, "\(topic)/cmd/set_wheel_revolutions", #"{"revolutions":100000}"#)
            #expect(set.contains(#""ok":true"#), "\(set)")
            let setCumulative = "WRITE \(controlPoint) 01a0860100"
            #expect(try await Self.writes(of: meter, through: setCumulative) == writes + [setCumulative])
            try await recorder.waitFor("\(topic)/measurement", after: mark) {
                ((try? Self.object($0))?["wheel_revolutions"] as? Double ?? 0) >= 100_000
            }
            await recorder.stop()
        }
    }

    /// A foot pod (`gatt2mqtt-sim rsc`, encoding from the specification) served by the shipped Running Speed and
    /// Cadence declaration: speed, cadence, stride and the distance it counts decoded, the very bytes it sent; walking
    /// or running as it says. BlueZoo only.
    @Test func aFootPodsRunIsDecoded() async throws {
        try await TestWorld.with { world in
            let pod = try await world.startSimulator([
                "rsc", "--interval-ms", "250", "--speed", "768", "--cadence", "170", "--stride-cm", "106",
            ])
            let id = try pod.simulatedID
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            try await recorder.waitFor("rsc/\(id)/connection") { $0.payloadString == "connected" }
            let measurement = try Self.object(try await recorder.waitFor("rsc/\(id)/measurement"))
            #expect(measurement["speed"] as? Double == 3 && measurement["cadence"] as? Double == 170, "\(measurement)")
            #expect(measurement["stride_length"] as? Double == 1.06 && measurement["running"] as? Bool == true)
            // The distance, in 0.1 m, is what the pod counted: its bytes are among those it sent.
            let metres = try #require(measurement["total_distance"] as? Double, "\(measurement)")
            let decimetres = UInt32((metres * 10).rounded())
            let bytes =
                [0x07, 0x00, 0x03, 0xAA, 0x6A, 0x00] + (0..<4).map { UInt8(truncatingIfNeeded: decimetres >> ($0 * 8)) }
            let hex = bytes.map { String(format: "%02x", $0) }.joined()
            try await pod.waitForLine { $0 == "MEASUREMENT \(hex)" }

            let mark = recorder.mark
            try pod.send(line: "walk")
            try await recorder.waitFor("rsc/\(id)/measurement", after: mark) {
                (try? Self.object($0))?["running"] as? Bool == false
            }
            await recorder.stop()
        }
    }

    /// Publishes a command and returns its reply (on the device's reply topic).
    private func command(_ recorder: TopicRecorder, _ topic: String, _ payload: String) async throws -> String {
        let mark = recorder.mark
        try recorder.publish(topic, payload)
        let device = topic.split(separator: "/").prefix(2).joined(separator: "/")
        return try await recorder.waitFor("\(device)/reply", after: mark).payloadString ?? ""
    }

    /// The simulator's WRITE lines, once `last` (the write the test made last) has been read. They come through a
    /// pipe read beside the broker: the line of a write whose answer is already on the broker may still be on its way,
    /// and counting before it arrived once made a refusal look like a write.
    private static func writes(of simulator: ManagedProcess, through last: String) async throws -> [String] {
        try await simulator.waitForLine { $0 == last }
        return simulator.lines.map(\.text).filter { $0.hasPrefix("WRITE") }
    }

    /// A JSON object, as a measurement topic carries it (numbers and flags).
    private static func object(_ message: MQTTMessage) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Any],
            "\(message.payloadString ?? "")")
    }

    /// A JSON object of numbers, as a measurement topic carries it.
    private static func numbers(_ message: MQTTMessage) throws -> [String: Double] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(message.payload)) as? [String: Double],
            "\(message.payloadString ?? "")")
    }
}
