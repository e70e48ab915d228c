import Testing

@testable import Bridge

/// Issue #44: a forgotten grip came back. A `forget` request ends the session first and removes BlueZ's object (and
/// bond) after; bluetoothd keeps reporting the device until then, and a bonded grip connects by itself. A sighting in
/// between started a new session, announced the grip to Home Assistant again, and nothing withdrew it.
@Suite struct GatewayForgetTests {
    @Test func aBondedGripHeardWhileItIsRemovedStaysForgotten() async throws {
        let band = InMemoryDevices.cprBand()
        try await InMemoryGateway.with(configure: { $0.autoConnect = .allowList([band.device.address]) }) { gateway in
            let grip = InMemoryDevices.grip(paired: true)
            let id = await gateway.connect(grip, family: "grip")
            let gripPath = try #require(await gateway.central.devices(on: "/org/bluez/hci0").first?.path)
            await gateway.probe.next(on: "homeassistant/device/test_grip_\(id)/config") { !$0.isEmpty }

            // While bluetoothd removes it, the grip is heard again; the CPR band added after it is followed once
            // the gateway has taken the sighting (BlueZ's events are taken in order).
            let (central, probe) = (gateway.central, gateway.probe)
            let bandConnection = "cpr/\(DeviceID.from(address: band.device.address))/connection"
            central.onRemoveDevice { path in
                guard path == gripPath else { return }
                let mark = probe.mark
                central.hear(path, rssi: -50)
                central.add(band)
                await probe.next(on: bandConnection, after: mark) { $0 == "connected" }
            }
            let mark = gateway.probe.mark
            try gateway.publish("gatt2mqtt/test/request/forget", #"{"address":"\#(grip.device.address)"}"#)
            let answer = await gateway.probe.next(on: "gatt2mqtt/test/response/forget", after: mark)
            #expect(answer.payloadString == #"{"ok":true,"request":"forget"}"#)

            let found = gateway.log.lines.filter { $0.contains("device found") && $0.contains("family=grip") }
            #expect(found.count == 1, "one session for the grip, none after the forget request: \(found)")
            #expect(gateway.central.removedDevices == [gripPath])
            #expect(gateway.broker.retainedTopics("homeassistant/device/test_grip_\(id)/config").isEmpty)
        }
    }
}
