import Foundation
import MQTT
import TestSupport
import Testing

/// A gateway with several adapters: each device on the adapter that hears it best and has a free slot.
/// BlueZoo only, since its fixture sets what each adapter hears (btvirt's controllers report no signal);
/// `CPRBandEndToEndTests.sixBandsAtOnceSpreadOverTheAdaptersSlots` spreads devices over adapters in both worlds, and
/// `GatewayPlacementTests` (in memory) checks what the gateway decides when an adapter is full.
@Suite(.serialized)
struct MultiAdapterTests {
    /// The inventory entry of `address`, once it satisfies `predicate`.
    private func entry(
        _ recorder: TopicRecorder, _ address: String, after mark: Int = 0,
        where predicate: @escaping @Sendable ([String: Any]) -> Bool
    ) async throws -> [String: Any] {
        let found = try await recorder.waitFor("gatt2mqtt/test/devices", after: mark) { message in
            Self.entries(message).contains { ($0["address"] as? String) == address && predicate($0) }
        }
        return try #require(Self.entries(found).first { ($0["address"] as? String) == address })
    }

    private static func entries(_ message: MQTTMessage) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(message.payload))) as? [[String: Any]] ?? []
    }

    @Test func aDeviceIsConnectedThroughTheAdapterThatHearsItBest() async throws {
        try await TestWorld.with(.bluezoo, centralAdapters: 2, peripheralAdapters: 1) { world in
            // hci2 is the belt's adapter; hci1 hears it 35 dB better than hci0.
            try await world.setSignal(adapter: 0, device: 2, mean: -85)
            try await world.setSignal(adapter: 1, device: 2, mean: -50)
            let belt = try await world.startSimulator(["belt"])
            let recorder = try await TopicRecorder(world: world)
            _ = try await world.startBridge()
            try await recorder.waitFor("belt/\(try belt.simulatedID)/connection") { $0.payloadString == "connected" }
            let served = try await entry(recorder, world.adapterAddresses[2]) { $0["state"] as? String == "connected" }
            #expect(served["adapter"] as? String == "hci1")
            for topic in ["gatt2mqtt/test/adapter", "gatt2mqtt/test/adapter/hci0", "gatt2mqtt/test/adapter/hci1"] {
                #expect(try await recorder.waitFor(topic).payloadString == "powered", "\(topic)")
            }
            await recorder.stop()
        }
    }
}
