import Foundation
import TestSupport

/// Two gateways of one fleet in a BlueZoo world, for the suites that run a fleet across a real boundary
/// (`FleetEndToEndTests`, `ClusteredBrokerFleetTests`).
enum TwoGatewayWorld {
    /// A fleet gateway's arguments: claims refreshed every second, its incarnation file in `folder`.
    static func fleetArguments(_ gateway: String, folder: String) -> [String] {
        ["--fleet", "--fleet-refresh-seconds", "1", "--fleet-incarnation-file", "\(folder)/\(gateway)"]
    }

    /// Runs `body` in a BlueZoo world with gw-a's adapter hci0, gw-b's hci1 and the belt's hci2, where hci1
    /// hears the belt 30 dB better than hci0; `folder` is for the gateways' incarnation files.
    static func run(_ body: (TestWorld, _ folder: String) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-fleet-\(UUID().uuidString.prefix(8))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await TestWorld.with(.bluezoo, centralAdapters: 2, peripheralAdapters: 1) { world in
            try await world.setSignal(adapter: 0, device: 2, mean: -80)
            try await world.setSignal(adapter: 1, device: 2, mean: -50)
            try await body(world, folder)
        }
    }

    /// How many heartbeats `gateway` has published since `mark`, once there are `count`.
    static func heartbeats(_ recorder: TopicRecorder, _ gateway: String, after mark: Int, count: Int) async throws {
        for _ in 0..<count {
            let next = recorder.mark
            try await recorder.waitFor("gatt2mqtt/\(gateway)/fleet", after: max(mark, next))
        }
    }
}
