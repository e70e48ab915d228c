import Foundation
import MQTT
import TestSupport
import Testing

/// mosquitto → gatt2mqtt → BlueZ → virtual heart rate strap (`gatt2mqtt-sim hr`, the Bluetooth SIG's Heart Rate
/// service): issue #45's fifth family, on the session engine, in every world.
@Suite(.serialized)
struct HeartRateEndToEndTests {
    static let controlPointWrite = "WRITE 00002a39-0000-1000-8000-00805f9b34fb 01"

    @Test(arguments: BlueZWorld.enabled)
    func aStrapStreamsItsRateAndItsEnergyIsReset(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let strap = try await world.startSimulator(["hr", "--bpm", "75", "--interval-ms", "250"])
            let id = try strap.simulatedID
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            try await recorder.waitFor("hr/\(id)/connection") { $0.payloadString == "connected" }
            #expect(try await recorder.waitFor("hr/\(id)/location").payloadString == "chest")
            #expect(try await recorder.waitFor("hr/\(id)/battery").payloadString == #"{"level":90}"#)
            let info = try await recorder.waitFor("hr/\(id)/info")
            #expect(info.payloadString?.contains(#""family":"hr""#) == true)

            // 75 bpm: one RR interval of 60/75 s, 819/1024 s on the wire, 799.8 ms.
            try await recorder.waitFor("hr/\(id)/bpm") { $0.payloadString == "75" }
            try await recorder.waitFor("hr/\(id)/rr") { $0.payloadString == "[799.8]" }
            try await recorder.waitFor("hr/\(id)/contact") { $0.payloadString == "detected" }
            try await recorder.waitFor("hr/\(id)/energy") { Int($0.payloadString ?? "") ?? 0 >= 2 }

            var mark = recorder.mark
            try strap.send(line: "bpm 120")
            try strap.send(line: "contact off")
            try strap.send(line: "battery 40")
            try await recorder.waitFor("hr/\(id)/bpm", after: mark) { $0.payloadString == "120" }
            try await recorder.waitFor("hr/\(id)/contact", after: mark) { $0.payloadString == "not_detected" }
            try await recorder.waitFor("hr/\(id)/battery", after: mark) { $0.payloadString == #"{"level":40}"# }

            // The energy counter goes back to zero: the control point's one command.
            mark = recorder.mark
            try recorder.publish("hr/\(id)/cmd/reset_energy", #"{"transaction":"r1"}"#)
            try await strap.waitForLine { $0 == Self.controlPointWrite }
            try await recorder.waitFor("hr/\(id)/energy", after: mark) { Int($0.payloadString ?? "") ?? 99 <= 1 }
            await recorder.stop()
        }
    }
}
