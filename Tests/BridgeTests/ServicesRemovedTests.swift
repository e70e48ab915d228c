import Testing

@testable import Bridge

/// BlueZ removes a device's GATT services when its GATT server goes away while the link stays up (the peripheral's
/// application ended): the gateway routes that to the device's session, which starts over.
@Suite(.timeLimit(.minutes(1))) struct ServicesRemovedTests {
    @Test func aConnectedDeviceWhoseServicesGoIsConnectedAfresh() async throws {
        try await InMemoryGateway.with { gateway in
            let band = InMemoryDevices.cprBand()
            let id = await gateway.connect(band, family: "cpr")
            let mark = gateway.probe.mark
            gateway.central.removeServices(of: band.device.path)
            await gateway.probe.next(on: "cpr/\(id)/connection", after: mark) { $0 == "disconnected" }
            let error = await gateway.probe.next(on: "cpr/\(id)/error", after: mark)
            #expect(error.payloadString?.contains(#""code":"link_lost""#) == true, "\(error.payloadString ?? "")")
            await gateway.probe.next(on: "cpr/\(id)/connection", after: mark) { $0 == "connected" }
            #expect(await band.connectTimeouts.count == 2, "connected again")
        }
    }
}
