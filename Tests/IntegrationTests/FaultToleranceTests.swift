import Foundation
import MQTT
import Testing
import TestSupport

/// Faults a gateway meets in the field, injected into the BlueZoo world: every device comes back
/// without a person, and a stuck device holds up nobody else.
@Suite(.serialized)
struct FaultToleranceTests {
    private func withConnectedDevices(
        _ families: [String], bridge: [String] = [],
        _ body: (TestWorld, [String: (process: ManagedProcess, id: String)], TopicRecorder, ManagedProcess) async throws -> Void
    ) async throws {
        let world = try await TestWorld.start(peripheralAdapters: families.count)
        do {
            var devices: [String: (process: ManagedProcess, id: String)] = [:]
            for (index, family) in families.enumerated() {
                let process = try await world.startSimulator([family], adapter: "hci\(index + 1)")
                let ready = try #require(process.lines.first { $0.text.hasPrefix("READY ") }?.text)
                devices[family] = (process, String(ready.split(separator: " ")[2]).lowercased().replacingOccurrences(of: ":", with: ""))
            }
            let recorder = try await TopicRecorder(url: world.broker.url)
            let daemon = try await world.startBridge(extraArguments: bridge)
            for (family, device) in devices {
                try await recorder.waitFor("\(family)/\(device.id)/connection") { $0.payloadString == "connected" }
            }
            try await body(world, devices, recorder, daemon)
            await recorder.stop()
        } catch {
            await world.stop()
            throw error
        }
        await world.stop()
    }

    /// Waits for every device to go `disconnected` and then `connected` again after `mark`; returns how long the return took.
    private func waitForReturn(_ recorder: TopicRecorder, _ devices: [String: (process: ManagedProcess, id: String)], after mark: Int,
                               from start: ContinuousClock.Instant) async throws -> Duration {
        for (family, device) in devices {
            try await recorder.waitFor("\(family)/\(device.id)/connection", after: mark) { $0.payloadString == "disconnected" }
            try await recorder.waitFor("\(family)/\(device.id)/connection", after: mark, timeout: .seconds(30)) { $0.payloadString == "connected" }
        }
        return ContinuousClock.now - start
    }

    @Test func aBluetoothdCrashIsSurvived() async throws {
        try await withConnectedDevices(["belt", "a5"]) { world, devices, recorder, _ in
            let mark = recorder.mark
            let start = ContinuousClock.now
            try await world.restartBlueZ()
            let back = try await waitForReturn(recorder, devices, after: mark, from: start)
            // Sessions ran their handshakes again: fresh state arrives.
            try await recorder.waitFor("belt/\(devices["belt"]!.id)/heading", after: recorder.mark)
            print("FIGURE bluetoothd restart: devices online again after \(back)")
            #expect(back < .seconds(10), "every device online again within 10 s of BlueZ returning (took \(back))")
        }
    }

    @Test func anAdapterUnpluggedAndPluggedBackIsSurvived() async throws {
        try await withConnectedDevices(["belt"]) { world, devices, recorder, _ in
            let mark = recorder.mark
            try await world.removeAdapter(0)
            try await recorder.waitFor("belt/\(devices["belt"]!.id)/connection", after: mark) { $0.payloadString == "disconnected" }
            let start = ContinuousClock.now
            try await world.addAdapter(0)
            let back = try await waitForReturn(recorder, devices, after: mark, from: start)
            print("FIGURE adapter re-added: device online again after \(back)")
            #expect(back < .seconds(10), "online again within 10 s of the adapter returning (took \(back))")
        }
    }

    @Test func aDeviceThatDiesComesBackAndAStuckOneBlocksNobody() async throws {
        try await withConnectedDevices(["belt", "a5"]) { world, devices, recorder, _ in
            let belt = try #require(devices["belt"]), a5 = try #require(devices["a5"])
            try recorder.publish("a5/\(a5.id)/cmd/start", "{}")
            try await recorder.waitFor("a5/\(a5.id)/force")

            // Stuck: the belt's process stops answering. Its command fails within the GATT timeout…
            belt.process.send(SIGSTOP)
            let asked = ContinuousClock.now
            try recorder.publish("belt/\(belt.id)/cmd/vibrate", #"{"direction":90}"#, responseTopic: "test/stuck")
            // …while the Activ5 keeps streaming meanwhile.
            let during = recorder.mark
            for _ in 0..<5 { try await recorder.waitFor("a5/\(a5.id)/force", after: recorder.mark) }
            let answer = try await recorder.waitFor("test/stuck", timeout: .seconds(15))
            #expect(answer.payloadString?.contains(#""ok":false"#) == true)
            #expect(ContinuousClock.now - asked < .seconds(12))
            #expect(recorder.messages.dropFirst(during).contains { $0.topic == "a5/\(a5.id)/force" })
            belt.process.send(SIGCONT)

            // Dies: the bridge says offline at once, and the belt is back soon after it returns.
            let mark = recorder.mark
            belt.process.send(SIGKILL)
            try await recorder.waitFor("belt/\(belt.id)/connection", after: mark) { $0.payloadString == "disconnected" }
            let start = ContinuousClock.now
            _ = try await world.startSimulator(["belt"], adapter: "hci1")
            try await recorder.waitFor("belt/\(belt.id)/connection", after: mark, timeout: .seconds(30)) { $0.payloadString == "connected" }
            let back = ContinuousClock.now - start
            print("FIGURE device returned: online again after \(back)")
            #expect(back < .seconds(10), "online again within 10 s of the device returning (took \(back))")
        }
    }

    @Test func aCleanShutdownDisconnectsSaysOfflineAndExitsWithinTwoSeconds() async throws {
        try await withConnectedDevices(["belt", "a5"]) { _, devices, recorder, daemon in
            let mark = recorder.mark
            let asked = ContinuousClock.now
            daemon.send(SIGTERM)
            #expect(try await daemon.waitForExit(timeout: .seconds(2)) == .exited(0))
            print("FIGURE clean shutdown took \(ContinuousClock.now - asked)")
            #expect(ContinuousClock.now - asked < .seconds(2))
            try await recorder.waitFor("gatt2mqtt/test/status", after: mark) { $0.payloadString == "offline" }
            for (family, device) in devices {
                try await recorder.waitFor("\(family)/\(device.id)/connection", after: mark) { $0.payloadString == "disconnected" }
            }
        }
    }
}
