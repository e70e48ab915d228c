import Foundation
import MQTT
import Testing

@testable import Bridge

/// Where a gateway with several adapters serves each device, whole but in memory (`InMemoryGateway`): on the
/// adapter that hears it best among those with a free slot. That an adapter's RSSI reaches the gateway from
/// BlueZ stays in the process tests (`MultiAdapterTests`).
@Suite(.timeLimit(.minutes(1))) struct GatewayPlacementTests {
    /// The inventory entry of `address` in the gateway's retained `devices`, once it satisfies `predicate`.
    private func entry(
        _ gateway: InMemoryGateway, _ address: String, after mark: Int = 0,
        where predicate: @escaping @Sendable ([String: Any]) -> Bool
    ) async -> [String: Any] {
        let found = await gateway.probe.next(on: "gatt2mqtt/test/devices", after: mark) { payload in
            Self.entries(payload).contains { ($0["address"] as? String) == address && predicate($0) }
        }
        return Self.entries(found.payloadString ?? "").first { ($0["address"] as? String) == address } ?? [:]
    }

    private static func entries(_ payload: String) -> [[String: Any]] {
        (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [[String: Any]] ?? []
    }

    /// With one slot each: the second device goes to the weaker adapter, the third (heard by hci0 only) waits, in
    /// the inventory and the log, and takes the slot the first one frees.
    @Test func aFullAdapterPassesDevicesOnAndAFreedSlotIsTaken() async throws {
        try await InMemoryGateway.with(adapters: ["hci0", "hci1"], configure: { $0.adapterSlots = 1 }) { gateway in
            let (first, second, third) = (
                InMemoryDevices.cprBand(address: "00:11:22:33:44:01", name: "CPR-01"),
                InMemoryDevices.cprBand(address: "00:11:22:33:44:02", name: "CPR-02"),
                InMemoryDevices.cprBand(address: "00:11:22:33:44:03", name: "CPR-03")
            )
            gateway.central.add(first, heardBy: ["hci0": -50, "hci1": -80])
            #expect(
                await entry(gateway, first.device.address) { $0["state"] as? String == "connected" }["adapter"]
                    as? String == "hci0")
            gateway.central.add(second, heardBy: ["hci0": -50, "hci1": -80])
            #expect(
                await entry(gateway, second.device.address) { $0["state"] as? String == "connected" }["adapter"]
                    as? String == "hci1")
            gateway.central.add(third, heardBy: ["hci0": -50])
            _ = await entry(gateway, third.device.address) { $0["state"] as? String == "waiting_for_slot" }
            await gateway.log.waitForLine(containing: "no free connection slot")
            #expect(await !third.isConnected)

            let mark = gateway.probe.mark
            try gateway.publish("gatt2mqtt/test/request/disconnect", #"{"address":"\#(first.device.address)"}"#)
            let moved = await entry(gateway, third.device.address, after: mark) {
                $0["state"] as? String == "connected"
            }
            #expect(moved["adapter"] as? String == "hci0")
            let left = await entry(gateway, first.device.address, after: mark) { $0["state"] as? String == "idle" }
            #expect(left["adapter"] == nil)
            #expect(await third.isConnected)
        }
    }
}
