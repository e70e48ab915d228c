import Testing

@testable import Bridge

/// Every registered family's device in a whole gateway, in memory (issue #45: a family is a line in the registry and
/// its folders). The families come from the registry and the devices from `InMemoryDevices.of`, so a new family is
/// under this test without a line here, and fails it until it has a device in memory.
@Suite(.timeLimit(.minutes(1))) struct GatewayFamiliesTests {
    /// The device connects, its battery and Home Assistant's battery entity are retained, and after its link drops
    /// its session says `disconnected` and connects it again.
    @Test(arguments: DeviceFamily.allCases)
    func everyFamilyConnectsAnnouncesItsBatteryAndComesBackAfterALinkLoss(family: DeviceFamily) async throws {
        let link = try #require(
            InMemoryDevices.of(family, address: "00:11:22:33:44:E0"), "InMemoryDevices has no \(family) device")
        try await InMemoryGateway.with { gateway in
            let id = await gateway.connect(link, family: family.rawValue)
            await gateway.probe.next(on: "\(family)/\(id)/battery") { !$0.isEmpty }
            #expect(gateway.broker.retained("\(family)/\(id)/battery") != nil, "\(family)'s battery is retained")
            await gateway.probe.next(on: "homeassistant/device/test_\(family)_\(id)/config") { !$0.isEmpty }

            let mark = gateway.probe.mark
            await gateway.central.dropLink(of: link.device.path)
            await gateway.probe.next(on: "\(family)/\(id)/connection", after: mark) { $0 == "disconnected" }
            await gateway.probe.next(on: "\(family)/\(id)/connection", after: mark) { $0 == "connected" }
            #expect(await link.isConnected)
        }
    }
}
