import Foundation
import Locks
import TestSupport
import Testing

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
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            await recorder.stop()

            // One interactive bluetoothctl, which reads its commands once its proxies are loaded. Its default
            // controller is the first one BlueZ lists, and it shows only that controller's devices and GATT
            // services: hci0 (the real world's guest starts bluetoothd once every controller exists, so that
            // they register in index order). It selects hci0 all the same.
            let shell = try world.launch("bluetoothctl", [], name: "bluetoothctl", standardInput: true)
            defer { shell.send(SIGTERM) }
            try await shell.waitForLine(timeout: .seconds(30)) {
                $0.contains("Controller \(world.adapterAddresses[0])") || $0.contains("Agent registered")
            }
            try shell.send(line: "list")
            let first = try await shell.waitForLine(timeout: .seconds(30)) {
                $0.contains("Controller \(world.adapterAddresses[0])")
            }
            #expect(first.contains("[default]"), "hci0, registered first, is bluetoothctl's default: \(first)")
            try shell.send(line: "select \(world.adapterAddresses[0])")
            try shell.send(line: "devices")
            try await shell.waitForLine(timeout: .seconds(30)) { $0.contains("Device \(address) naviGuertel-SIM") }
            let listed = shell.lineCount
            let expected = [
                "fe51", "fe52", "fe53", "fe01", "fe02", "fe03", "fe04", "fe05", "fe06", "fe07", "fe09", "fe0a", "fe0b",
                "fe0c", "fe13", "fe14",
            ]
            .map { "0000\($0)-0000-1000-8000-00805f9b34fb" }
            try shell.send(line: "gatt.list-attributes \(address)")
            // The listing streams in; it is complete once every expected UUID has shown.
            let seen = Mutex(Set<String>())
            _ = try? await shell.waitForLine(after: listed, timeout: .seconds(30)) { line in
                let text = line.lowercased()
                return seen.withLock { seen in
                    for uuid in expected where text.contains(uuid) { seen.insert(uuid) }
                    return seen.count == expected.count
                }
            }
            let text = shell.lines.dropFirst(listed).map(\.text).joined(separator: "\n").lowercased()
            for uuid in expected {
                #expect(text.contains(uuid), "bluetoothctl lists \(uuid)")
            }
            #expect(text.contains("00002902-0000-1000-8000-00805f9b34fb"), "notifying characteristics carry a CCCD")
        }
    }
}
