import Foundation
import MQTT
import TestSupport
import Testing

/// What users asked a device for outlives the gateway: an Activ5's stream and a CPR band's practice come
/// back after the gateway crashes and restarts, from the retained `<family>/<id>/desired`.
@Suite(.serialized)
struct DesiredStateEndToEndTests {
    private func reply(_ recorder: TopicRecorder, _ topic: String, _ payload: String = "{}") async throws -> String? {
        let replies = "reply/test/desired/\(UUID().uuidString.prefix(6))"
        try recorder.publish(topic, payload, responseTopic: replies)
        return try await recorder.waitFor(replies).payloadString
    }

    @Test(arguments: BlueZWorld.enabled)
    func anActiv5StreamComesBackAfterACrashOfTheGateway(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let device = try await world.startSimulator(["a5"])
            let id = try device.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let bridge = try await world.startBridge()
            try await recorder.waitFor("a5/\(id)/connection") { $0.payloadString == "connected" }
            #expect(try await reply(recorder, "a5/\(id)/cmd/start") == #"{"command":"start","ok":true}"#)
            try await recorder.waitFor("a5/\(id)/force")
            try await recorder.waitFor("a5/\(id)/desired") { $0.payloadString == #"{"imu":false,"streaming":true}"# }

            bridge.send(SIGKILL)
            _ = try await bridge.waitForExit()
            let mark = recorder.mark
            _ = try await world.startBridge()
            try await recorder.waitFor("a5/\(id)/connection", after: mark, timeout: .seconds(40)) {
                $0.payloadString == "connected"
            }
            try await recorder.waitFor("a5/\(id)/state", after: mark) { $0.payloadString == "isometric" }
            try await recorder.waitFor("a5/\(id)/force", after: mark)

            // Stopped by its users, it stays stopped: the intent follows every start and stop.
            #expect(try await reply(recorder, "a5/\(id)/cmd/stop") == #"{"command":"stop","ok":true}"#)
            try await recorder.waitFor("a5/\(id)/desired", after: mark) {
                $0.payloadString == #"{"imu":false,"streaming":false}"#
            }
            await recorder.stop()
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func aCPRBandsPracticeComesBackAfterACrashOfTheGateway(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let band = try await world.startSimulator(["cpr", "--name", "CPR-01"])
            let id = try band.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let bridge = try await world.startBridge()
            try await recorder.waitFor("cpr/\(id)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("cpr/\(id)/desired") { $0.payloadString == #"{"mode":"ready"}"# }
            #expect(try await reply(recorder, "cpr/\(id)/cmd/practice") == #"{"command":"practice","ok":true}"#)
            try await recorder.waitFor("cpr/\(id)/desired") { $0.payloadString == #"{"mode":"practicing"}"# }

            bridge.send(SIGKILL)
            _ = try await bridge.waitForExit()
            let mark = recorder.mark
            let restart = band.lineCount
            _ = try await world.startBridge()
            try await recorder.waitFor("cpr/\(id)/connection", after: mark, timeout: .seconds(40)) {
                $0.payloadString == "connected"
            }
            try await recorder.waitFor("cpr/\(id)/mode", after: mark) { $0.payloadString == "practicing" }
            // Bus's F1 on connect, then the practice users had asked for.
            let command = "WRITE 0000fff4-0000-1000-8000-00805f9b34fb "
            try await band.waitForLine(after: restart) { $0 == command + "f3" }
            let writes = band.lines.dropFirst(restart).map(\.text).filter { $0.hasPrefix(command) }
            #expect(writes == [command + "f1", command + "f3"], "\(writes)")
            await recorder.stop()
        }
    }
}
