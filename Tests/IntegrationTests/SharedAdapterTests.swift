import Foundation
import TestSupport
import Testing

/// On a Home Assistant host the adapter gatt2mqtt uses is also scanned by Home Assistant's Bluetooth integration
/// (habluetooth over bleak, an active discovery session of its own through the same bluetoothd). Here such a scanner
/// (scripts/crosscheck/shared_adapter_scan.py) runs on hci0 while gatt2mqtt serves a belt from it: the scanner hears
/// an advertiser that gatt2mqtt leaves alone, the belt streams on without a break, and when the scanner ends its
/// session gatt2mqtt still serves. In both worlds (on the real bluetoothd the scanner runs in the guest: `runPython`).
@Suite(.serialized)
struct SharedAdapterTests {
    static let script = ProjectPaths.root + "/scripts/crosscheck/shared_adapter_scan.py"

    @Test(arguments: BlueZWorld.enabled)
    func aScannerBesideTheGatewayHearsOthersWhileTheBeltStreams(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind, peripheralAdapters: 2) { world in
            let belt = try await world.startSimulator(["belt"], adapter: world.peripheralAdapter(1))
            let strap = try await world.startSimulator(["hr"], adapter: world.peripheralAdapter(2))
            let (id, strapAddress) = (try belt.simulatedID, try strap.simulatedAddress)
            let recorder = try await TopicRecorder(world: world)
            // The belt on the allow list: the strap, advertising beside it, is not adopted and stays unconnected.
            _ = try await world.startBridge(extraArguments: ["--allow", try belt.simulatedAddress])
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/\(id)/heading")

            let before = recorder.mark
            let arguments = ["-u", Self.script, "--adapter", "hci0", "--seconds", "12"]
            let (succeeded, output) = try await world.runPython(arguments, name: "ha-scanner")
            let printed = output.filter { $0.hasPrefix("SCAN ") }
            #expect(succeeded && printed.contains("SCAN DONE"), "the scanner:\n\(output.joined(separator: "\n"))")
            #expect(
                printed.contains { $0.hasPrefix("SCAN SEEN \(strapAddress)") },
                "the scanner heard the strap: \(printed)")

            // While the scanner had its session, the belt streamed on and stayed connected.
            let during = recorder.messages(on: "belt/\(id)/heading", after: before).count
            #expect(during >= 5, "headings during the scan: \(during)")
            #expect(
                !recorder.messages(on: "belt/\(id)/connection", after: before).contains {
                    $0.payloadString != "connected"
                }, "the belt stayed connected")
            // And the scanner's end of its session did not end the gateway's service.
            let after = recorder.mark
            try await recorder.waitFor("belt/\(id)/heading", after: after)
            print(
                "FIGURE shared adapter (\(kind)): \(during) headings during a 12 s scan; \(printed.filter { $0.hasPrefix("SCAN COUNT") })"
            )
            await recorder.stop()
        }
    }
}
