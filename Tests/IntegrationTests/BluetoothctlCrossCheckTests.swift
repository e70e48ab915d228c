import Foundation
import Testing
import TestSupport

/// bluetoothctl, BlueZ's own client, sees the world as a BlueZ user would: the virtual belt, and once
/// the bridge has connected it, its services and characteristics.
@Suite(.serialized)
struct BluetoothctlCrossCheckTests {
    @Test(arguments: BlueZWorld.enabled)
    func bluetoothctlListsTheVirtualBeltAndItsCharacteristics(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let belt = try await world.startSimulator(["belt"])
            let address = try belt.simulatedAddress
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(url: world.broker.url)
            _ = try await world.startBridge()
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            await recorder.stop()

            // bluetoothctl run with a command may answer before its proxies are loaded (seen over the real guest's
            // forwarded bus, just after boot): ask again until the answer names what it should.
            let list = try await bluetoothctl(world, ["list"]) { $0.contains("[default]") }
            #expect(list.lines.contains { $0.text.contains("Controller \(world.adapterAddresses[0])") && $0.text.contains("[default]") },
                    "hci0, the first adapter, is bluetoothctl's default as with bluetoothd")

            let devices = try await bluetoothctl(world, ["devices"]) { $0.contains(address) }
            #expect(devices.lines.contains { $0.text == "Device \(address) naviGuertel-SIM" })

            let attributes = try await bluetoothctl(world, ["gatt.list-attributes", address]) { $0.contains("0000fe01") }
            let text = attributes.outputText.lowercased()
            for uuid in ["fe51", "fe52", "fe53", "fe01", "fe02", "fe03", "fe04", "fe05", "fe06", "fe07", "fe09", "fe0a", "fe0b", "fe0c", "fe13", "fe14"] {
                #expect(text.contains("0000\(uuid)-0000-1000-8000-00805f9b34fb"), "bluetoothctl lists \(uuid)")
            }
            #expect(text.contains("00002902-0000-1000-8000-00805f9b34fb"), "notifying characteristics carry a CCCD")
        }
    }

    /// Runs bluetoothctl until its output satisfies `answered`, for up to 45 s; returns the last run. In the
    /// first test after the guest boots, ten runs in a row once answered within 10 s, each before its
    /// proxies had loaded: keep asking, a second apart, for as long as the world's patience allows.
    private func bluetoothctl(_ world: TestWorld, _ arguments: [String], answered: (String) -> Bool) async throws -> ManagedProcess {
        let deadline = ContinuousClock.now + .seconds(45)
        var run = try world.launch("bluetoothctl", arguments)
        _ = try await run.waitForExit()
        while !answered(run.outputText), ContinuousClock.now < deadline {
            try await Task.sleep(for: .seconds(1))
            run = try world.launch("bluetoothctl", arguments)
            _ = try await run.waitForExit()
        }
        return run
    }
}
