import Foundation
import Testing

@testable import Bridge

/// Every device's link vitals (`LinkVitals.swift`): a retained `last_seen` when it connects and when its link ends,
/// and its signal strength where its family does not report it.
@Suite(.timeLimit(.minutes(1))) struct LinkVitalsTests {
    @Test func aConnectedDeviceIsSeenAndItsSignalReported() async throws {
        try await InMemoryGateway.with { gateway in
            let before = Date.now.addingTimeInterval(-1)
            let belt = InMemoryDevices.belt(rssi: -61)
            let mark = gateway.probe.mark
            let id = await gateway.connect(belt, family: "belt", rssi: -61)
            let seen = await gateway.probe.next(on: "belt/\(id)/last_seen", after: mark)
            #expect(gateway.broker.retained("belt/\(id)/last_seen")?.payloadString == seen.payloadString, "retained")
            let time = try #require(
                try? Date(seen.payloadString ?? "", strategy: .iso8601), "\(seen.payloadString ?? "")")
            #expect(time >= before && time <= Date.now.addingTimeInterval(1))
            let rssi = await gateway.probe.next(on: "belt/\(id)/rssi", after: mark)
            #expect(rssi.payloadString == "-61" && rssi.qos == .atMostOnce)
            #expect(gateway.broker.retained("belt/\(id)/rssi") == nil, "not retained")

            // The link drops: the moment it did is the last the gateway knew the belt there.
            let dropped = gateway.probe.mark
            await gateway.central.dropLink(of: belt.device.path)
            await gateway.probe.next(on: "belt/\(id)/connection", after: dropped) { $0 == "disconnected" }
            await gateway.probe.next(on: "belt/\(id)/last_seen", after: dropped)
        }
    }

    @Test func timestampsAreWhatHomeAssistantTakes() {
        #expect(SessionCore.timestamp(Date(timeIntervalSince1970: 1_800_000_000)) == "2027-01-15T08:00:00Z")
    }
}
