import Foundation
import MQTT
import TestSupport
import Testing

/// Every belt command through mosquitto → gatt2mqtt → BlueZoo → virtual belt: the bytes the belt
/// receives, the reply, and the state that comes back.
@Suite(.serialized)
struct BeltCommandsEndToEndTests {
    static let fe03 = "0000fe03-0000-1000-8000-00805f9b34fb"
    static let fe05 = "0000fe05-0000-1000-8000-00805f9b34fb"

    /// A belt world with a connected bridge; `simulator` arguments go to `gatt2mqtt-sim belt`.
    private func withConnectedBelt(
        _ kind: BlueZWorld, simulator: [String] = [],
        _ body: (TestWorld, ManagedProcess, TopicRecorder, String) async throws -> Void
    ) async throws {
        try await TestWorld.withConnectedBelt(kind, simulator: simulator) { world, connected in
            try await body(world, connected.belt, connected.recorder, connected.id)
        }
    }

    /// Sends one command and returns its reply, asking for it on a response topic of its own.
    private func send(_ recorder: TopicRecorder, _ id: String, _ name: String, _ payload: String, tag: String)
        async throws -> String
    {
        let replies = "reply/test/replies/\(tag)"
        try recorder.publish("belt/\(id)/cmd/\(name)", payload, responseTopic: replies, correlation: Array(tag.utf8))
        return try #require(try await recorder.waitFor(replies).payloadString)
    }

    static let writes: [(name: String, payload: String, characteristic: String, hex: String)] = [
        // The belt starts in wait mode; repeated signals play only in app mode.
        ("mode", "app", fe05, "01810300"),
        (
            "channel",
            #"{"channel":1,"pattern":"single_long","intensity":60,"orientation_type":"motor_index","orientation":4,"iterations":3,"period_ms":750}"#,
            fe03, "01033c000000010400000003ee0200000000"
        ),
        (
            "pulse",
            #"{"channel":2,"orientation_type":"angle","orientation":90,"on_duration_ms":100,"pulse_period_ms":300,"series_period_ms":2000}"#,
            fe03, "4002025a00aa640001002c01d0070100" + "00"
        ),
        ("vibrate", #"{"direction":180,"pattern":"critical_warning"}"#, fe03, "0003aaaa0000001111000003bc0200000100"),
        ("stop", #"{"channel":1}"#, fe03, "3001"),
        ("stop", "{}", fe03, "30ff"),
        ("signal", "destination_reached", fe03, "2001"),
        ("intensity", #"{"intensity":70,"feedback":false}"#, fe05, "0182460000"),
        ("compass_accuracy_signal", #"{"enabled":false}"#, fe05, "11030000"),
        ("heading_offset", #"{"offset":30}"#, fe05, "1101001e00"),
        ("mode", "compass", fe05, "01810200"),
    ]

    @Test(arguments: BlueZWorld.enabled)
    func everyCommandReachesTheBeltByteExactAndIsAnswered(_ kind: BlueZWorld) async throws {
        try await withConnectedBelt(kind) { _, belt, recorder, id in
            for (index, command) in Self.writes.enumerated() {
                let before = belt.lineCount
                let reply = try await send(recorder, id, command.name, command.payload, tag: "\(index)")
                #expect(reply == #"{"command":"\#(command.name)","ok":true}"#, "\(command.name) \(command.payload)")
                // The belt's stdout may trail the reply: wait for the write, then check it was the only one.
                try await belt.waitForLine(after: before) { $0 == "WRITE \(command.characteristic) \(command.hex)" }
                let written = belt.lines.dropFirst(before).filter {
                    $0.text.hasPrefix("WRITE ") && !$0.text.contains("fe02")
                }
                #expect(
                    written.map(\.text) == ["WRITE \(command.characteristic) \(command.hex)"],
                    "\(command.name) \(command.payload)")
            }
            // Confirmed settings come back as retained state from the belt's own notifications.
            try await recorder.waitFor("belt/\(id)/intensity") { $0.payloadString == "70" }
            try await recorder.waitFor("belt/\(id)/heading_offset") { $0.payloadString == "30" }
            try await recorder.waitFor("belt/\(id)/compass_accuracy_signal") {
                $0.payloadString == #"{"app_mode":false,"compass_mode":false}"#
            }
            try await recorder.waitFor("belt/\(id)/mode") { $0.payloadString == "compass" }
            let info = try await recorder.waitFor("belt/\(id)/info")
            #expect(info.payloadString?.contains("\"firmware\":52") == true)
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func orientationNotificationsCanBeStoppedRestartedAndPaced(_ kind: BlueZWorld) async throws {
        try await withConnectedBelt(kind) { _, belt, recorder, id in
            try await recorder.waitFor("belt/\(id)/orientation")
            #expect(
                try await send(recorder, id, "orientation", #"{"enabled":false}"#, tag: "off")
                    == #"{"command":"orientation","ok":true}"#)
            let seen = Set(recorder.messages(on: "belt/\(id)/heading").compactMap(\.payloadString))
            let before = belt.lineCount
            #expect(
                try await send(recorder, id, "orientation", #"{"enabled":true,"period_ms":100}"#, tag: "on")
                    == #"{"command":"orientation","ok":true}"#)
            try await belt.waitForLine(after: before) { $0 == "WRITE 0000fe05-0000-1000-8000-00805f9b34fb 110f006400" }
            // Headings come back: values not seen before the subscription was switched off and on.
            let next = try await recorder.waitFor("belt/\(id)/heading") { !seen.contains($0.payloadString ?? "") }
            try await recorder.waitFor("belt/\(id)/heading") {
                !seen.contains($0.payloadString ?? "") && $0.payloadString != next.payloadString
            }
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func olderFirmwareRefusesNewerCommandsWithoutWriting(_ kind: BlueZWorld) async throws {
        try await withConnectedBelt(kind, simulator: ["--firmware", "43"]) { _, belt, recorder, id in
            let before = belt.lineCount
            let pulse = try await send(
                recorder, id, "pulse",
                #"{"channel":2,"orientation_type":"angle","orientation":90,"on_duration_ms":100,"pulse_period_ms":300,"series_period_ms":2000}"#,
                tag: "p")
            #expect(pulse.contains(#""code":"unsupported_firmware""#))
            // Channels 4 and 5 need firmware 44 (FSLib-Android: firmware 43 plays 4 vibrations at once).
            let fifth = try await send(
                recorder, id, "vibrate", #"{"direction":90,"pattern":"navigation","channel":4}"#, tag: "v")
            #expect(fifth.contains(#""code":"unsupported_firmware""#) && fifth.contains("needs firmware 44"))
            let crossing = try await send(recorder, id, "mode", "crossing", tag: "c")
            #expect(crossing.contains(#""code":"unsupported_firmware""#))
            let period = try await send(recorder, id, "orientation", #"{"period_ms":100}"#, tag: "o")
            #expect(period.contains(#""code":"unsupported_firmware""#))
            // Refused means nothing played and nothing switched: no signal (FE03) and no mode change (FE05 01…) reached
            // the belt. Not "no write at all": the lines of the handshake's last requests may still be on their way
            // from the simulator's output (a ThreadSanitizer build showed one).
            #expect(
                !belt.lines.dropFirst(before).contains {
                    $0.text.hasPrefix("WRITE \(Self.fe03)") || $0.text.hasPrefix("WRITE \(Self.fe05) 01")
                })
        }
    }

    /// Outside app mode the belt ignores repeated signals: they are refused without a write, or the belt is
    /// switched to app mode first when the command asks; a limited signal on channel 0 plays in any mode.
    @Test(arguments: BlueZWorld.enabled)
    func vibrationsTheBeltWouldIgnoreAreRefusedOrSwitchItToAppMode(_ kind: BlueZWorld) async throws {
        try await withConnectedBelt(kind) { _, belt, recorder, id in
            try await recorder.waitFor("belt/\(id)/mode") { $0.payloadString == "wait" }
            let before = belt.lineCount
            let refused = try await send(
                recorder, id, "vibrate", #"{"direction":90,"pattern":"navigation","transaction":1}"#, tag: "r")
            #expect(
                refused.contains(#""code":"wrong_mode""#) && refused.contains("switch_to_app")
                    && refused.contains(#""transaction":1"#), "\(refused)")
            let pulse = try await send(
                recorder, id, "pulse",
                #"{"channel":2,"orientation_type":"angle","orientation":90,"on_duration_ms":100,"pulse_period_ms":300,"series_period_ms":2000}"#,
                tag: "p")
            #expect(pulse.contains(#""code":"wrong_mode""#))
            // Refused means nothing played and nothing switched: no signal (FE03) and no mode change (FE05 01…) reached
            // the belt. Not "no write at all": the lines of the handshake's last requests may still be on their way
            // from the simulator's output (a ThreadSanitizer build showed one).
            #expect(
                !belt.lines.dropFirst(before).contains {
                    $0.text.hasPrefix("WRITE \(Self.fe03)") || $0.text.hasPrefix("WRITE \(Self.fe05) 01")
                })

            // A one-shot notification on channel 0 plays in wait mode as it is.
            let oneShot = try await send(
                recorder, id, "vibrate", #"{"direction":90,"pattern":"direction_notification"}"#, tag: "o")
            #expect(oneShot == #"{"command":"vibrate","ok":true}"#)
            try await belt.waitForLine(after: before) { $0.hasPrefix("WRITE \(Self.fe03) 00") }

            // switch_to_app: app mode, confirmed by the belt, then the signal.
            let switched = belt.lineCount
            let played = try await send(
                recorder, id, "vibrate", #"{"direction":90,"pattern":"navigation","switch_to_app":true}"#, tag: "s")
            #expect(played == #"{"command":"vibrate","ok":true}"#)
            try await belt.waitForLine(after: switched) { $0.hasPrefix("WRITE \(Self.fe03) 02") }
            let written = belt.lines.dropFirst(switched).filter {
                $0.text.hasPrefix("WRITE") && !$0.text.contains("fe02")
            }.map(\.text)
            #expect(written.first == "WRITE \(Self.fe05) 01810300" && written.count == 2, "\(written)")
            try await recorder.waitFor("belt/\(id)/mode") { $0.payloadString == "app" }
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func buttonsAreEventsAndStandbyEndsTheConnectionCleanly(_ kind: BlueZWorld) async throws {
        try await withConnectedBelt(kind, simulator: ["--buttons", "1:compass:short,2:power:long"]) {
            _, _, recorder, id in
            let compass = try await recorder.waitFor("belt/\(id)/button") {
                $0.payloadString?.contains("\"compass\"") == true
            }
            #expect(
                compass.payloadString
                    == #"{"button":"compass","mode":"compass","press":"short","previous_mode":"wait"}"#)
            try await recorder.waitFor("belt/\(id)/mode") { $0.payloadString == "compass" }
            try await recorder.waitFor("belt/\(id)/mode") { $0.payloadString == "standby" }
            try await recorder.waitFor("belt/\(id)/event") { $0.payloadString == "power_off" }
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "disconnected" }
            // A belt switching itself off is no error: an `error` would come before `disconnected`.
            #expect(
                recorder.messages(on: "belt/\(id)/error").isEmpty,
                "\(recorder.messages(on: "belt/\(id)/error").map(\.payloadString))")
        }
    }
}
