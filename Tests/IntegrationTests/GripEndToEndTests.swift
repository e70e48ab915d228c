import Foundation
import MQTT
import TestSupport
import Testing

/// mosquitto → gatt2mqtt → BlueZoo → virtual camera grip (placeholder profile).
@Suite(.serialized)
struct GripEndToEndTests {
    private func startGrip(_ world: TestWorld, _ arguments: [String] = []) async throws -> (
        ManagedProcess, String, String
    ) {
        let grip = try await world.startSimulator(["grip"] + arguments)
        let ready = try #require(grip.lines.first { $0.text.hasPrefix("READY ") }?.text)
        let address = String(ready.split(separator: " ")[2])
        return (grip, address, address.lowercased().replacingOccurrences(of: ":", with: ""))
    }

    @Test(arguments: BlueZWorld.enabled)
    func theGripIsBondedPublishesEventsAndIsForgottenOnRequest(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let (grip, address, id) = try await startGrip(world, ["--script", "1:half_press,1.5:full_press,2:release"])
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            try await recorder.waitFor("grip/\(id)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("grip/\(id)/bonded") { $0.payloadString == "true" }
            try await recorder.waitFor("grip/\(id)/state") { $0.payloadString == "ready" }
            try await grip.waitForLine { $0.hasPrefix("BONDED ") }
            let info = try await recorder.waitFor("grip/\(id)/info")
            #expect(info.payloadString?.contains(#""firmware":"2.0.0""#) == true)
            let battery = try await recorder.waitFor("grip/\(id)/battery")
            #expect(battery.payloadString == #"{"level":85,"low":false}"#)

            // The scripted shutter sequence arrives as the SDK's event names, in order.
            try await recorder.waitFor("grip/\(id)/event") { $0.payloadString == "shutterButtonReleased" }
            #expect(
                recorder.messages(on: "grip/\(id)/event").compactMap(\.payloadString)
                    == ["shutterButtonHalfDown", "shutterButtonDown", "shutterButtonReleased"])

            // Forget: session ended and bond removed.
            let mark = recorder.mark
            try recorder.publish("gatt2mqtt/test/request/forget", #"{"address":"\#(address)"}"#)
            let answer = try await recorder.waitFor("gatt2mqtt/test/response/forget", after: mark)
            #expect(answer.payloadString == #"{"ok":true,"request":"forget"}"#)
            try await recorder.waitFor("grip/\(id)/connection", after: mark) { $0.payloadString == "disconnected" }
            await recorder.stop()
        }
    }

    /// A grip bonded to another host refuses this gateway: `state` says `not_bonded`, an error event says
    /// why, and the gateway keeps trying (the user forgets it on the other host).
    @Test(arguments: BlueZWorld.enabled)
    func aGripBondedElsewhereSaysNotBonded(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let (_, _, id) = try await startGrip(world, ["--bonded-elsewhere"])
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            try await recorder.waitFor("grip/\(id)/state") { $0.payloadString == "not_bonded" }
            let error = try await recorder.waitFor("grip/\(id)/error")
            #expect(
                error.payloadString?.hasPrefix(#"{"code":"not_bonded","message":"the grip refuses this gateway's bond"#)
                    == true, "\(error.payloadString ?? "")")
            #expect(!recorder.messages(on: "grip/\(id)/connection").contains { $0.payloadString == "connected" })
            await recorder.stop()
        }
    }

    /// A grip that declines bonding (not in pairing mode) fails the gateway's pairing: `bonded` and
    /// `state` say so, an error event says why, and no session starts. The grip's agent answers for it
    /// only as the default agent, so it starts after the gateway's own.
    @Test(arguments: BlueZWorld.enabled)
    func aGripThatDeclinesPairingSaysPairingFailed(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            let (grip, _, id) = try await startGrip(world, ["--refuse-pairing"])
            try await recorder.waitFor("grip/\(id)/state") { $0.payloadString == "pairing_failed" }
            try await grip.waitForLine { $0.hasPrefix("DECLINED ") }
            let error = try await recorder.waitFor("grip/\(id)/error")
            #expect(
                error.payloadString?.hasPrefix(#"{"code":"pairing_failed","message":"#) == true,
                "\(error.payloadString ?? "")")
            #expect(try await recorder.waitFor("grip/\(id)/bonded").payloadString == "false")
            #expect(!recorder.messages(on: "grip/\(id)/connection").contains { $0.payloadString == "connected" })
            #expect(!grip.lines.contains { $0.text.hasPrefix("BONDED ") })
            await recorder.stop()
        }
    }

    /// The gateway's `pair` request against a grip that declines: the requester gets the failure, and the
    /// grip's own users hear of it on its error topic.
    @Test(arguments: BlueZWorld.enabled)
    func aDeclinedPairRequestFailsAndIsPublishedAsAnError(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge(extraArguments: ["--auto-connect", "none"])
            let (grip, address, id) = try await startGrip(world, ["--refuse-pairing"])
            try await recorder.waitUntilSeen(address)
            try recorder.publish("gatt2mqtt/test/request/pair", #"{"address":"\#(address)"}"#)
            let answer = try #require(try await recorder.waitFor("gatt2mqtt/test/response/pair").payloadString)
            #expect(answer.contains(#""ok":false"#) && answer.contains("pairing with \(address) failed"), "\(answer)")
            let error = try await recorder.waitFor("grip/\(id)/error")
            #expect(
                error.payloadString?.hasPrefix(#"{"code":"pairing_failed","message":"#) == true,
                "\(error.payloadString ?? "")")
            // The grip wrote DECLINED before it answered bluetoothd; the line may still be in the pipe.
            try await grip.caughtUp()
            #expect(grip.lines.contains { $0.text.hasPrefix("DECLINED ") })
            await recorder.stop()
        }
    }

    /// A grip below 30 % says it is low; the grip takes no commands, and says so without a write.
    @Test func aLowBatteryIsFlaggedAndAnyCommandIsUnknown() async throws {
        try await TestWorld.with { world in
            let (grip, _, id) = try await startGrip(world, ["--battery", "20"])
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            try await recorder.waitFor("grip/\(id)/connection") { $0.payloadString == "connected" }
            #expect(try await recorder.waitFor("grip/\(id)/battery").payloadString == #"{"level":20,"low":true}"#)
            let before = grip.lineCount
            try recorder.publish("grip/\(id)/cmd/shutter", "{}", responseTopic: "reply/test/grip/shutter")
            let reply = try await recorder.waitFor("reply/test/grip/shutter")
            #expect(reply.payloadString?.contains(#""code":"unknown_command""#) == true, "\(reply.payloadString ?? "")")
            #expect(!grip.lines.dropFirst(before).contains { $0.text.hasPrefix("WRITE") })
            await recorder.stop()
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func aBondedGripIsRestoredOnStartWhateverThePolicy(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let (_, _, id) = try await startGrip(world)
            let recorder = try await TopicRecorder(world: world)
            let first = try await world.startBridge()
            try await recorder.waitFor("grip/\(id)/bonded") { $0.payloadString == "true" }
            try await recorder.waitFor("grip/\(id)/connection") { $0.payloadString == "connected" }
            first.send(SIGTERM)
            _ = try await first.waitForExit()
            // A gateway that connects nothing by itself still restores the bonded grip, as the SDK does.
            let mark = recorder.mark
            let started = ContinuousClock.now
            _ = try await world.startBridge(extraArguments: ["--auto-connect", "none"])
            try await recorder.waitFor("grip/\(id)/connection", after: mark) { $0.payloadString == "connected" }
            // With auto-connect off, nothing but the restore connects it: the connection is the claim. How soon is a
            // figure (the SDK's own bound is a 5 s connect timeout), not a test's bound: under the real stack's guest
            // it took 0.3-2 s, and 6.6 s once beside the other guest on a slower kernel.
            print("FIGURE bonded grip restored \(ContinuousClock.now - started) after the gateway started")
            await recorder.stop()
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func firmwareBelowTheProfilesMinimumGivesNoEvents(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let (grip, _, id) = try await startGrip(world, ["--firmware", "1.2.0", "--script", "1:half_press"])
            // The bridge's profile: the placeholder with a minimum firmware of 2.0.0.
            let profileFile = FileManager.default.temporaryDirectory.appendingPathComponent(
                "grip-\(UUID().uuidString).json")
            let placeholder = try String(
                contentsOfFile: ProjectPaths.root + "/examples/grip-profile.json", encoding: .utf8)
            try placeholder.replacingOccurrences(
                of: #""isHypothetical""#, with: #""minimumFirmware" : "2.0.0", "isHypothetical""#
            )
            .write(to: profileFile, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: profileFile) }
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge(extraArguments: ["--grip-profile", profileFile.path])
            try await recorder.waitFor("grip/\(id)/state") { $0.payloadString == "unsupported_firmware" }
            try await recorder.waitFor("grip/\(id)/connection") { $0.payloadString == "connected" }
            #expect(
                !grip.lines.contains { $0.text.hasPrefix("EVENT ") }, "nothing subscribes to events, so none are sent")
            #expect(recorder.messages(on: "grip/\(id)/event").isEmpty)
            await recorder.stop()
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func bluetoothctlPairsWithTheVirtualGrip(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let (grip, address, _) = try await startGrip(world)
            // Discovery makes the grip known to hci0; bluetoothctl's own scan does that.
            let scan = try world.launch("bluetoothctl", ["--timeout", "3", "scan", "on"])
            _ = try await scan.waitForExit(timeout: .seconds(15))
            // Without --timeout, bluetoothctl leaves at once, and the real bluetoothd cancels a bonding whose
            // requester left; with it, bluetoothctl stays for bluetoothd's answer (or the timeout).
            let pair = try world.launch("bluetoothctl", ["--timeout", "20", "pair", address])
            try await pair.waitForLine(timeout: .seconds(25)) {
                $0.contains("Pairing successful") || $0.contains("Failed to pair")
            }
            #expect(pair.outputText.contains("Pairing successful"), "\(pair.outputText)")
            _ = await pair.terminate()
            let info = try world.launch("bluetoothctl", ["info", address])
            _ = try await info.waitForExit()
            #expect(info.outputText.contains("Paired: yes"))
            #expect(grip.isRunning)
        }
    }
}
