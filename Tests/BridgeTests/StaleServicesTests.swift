import BlueZ
import Peripherals
import Testing

@testable import Bridge

/// BlueZ keeps a copy of a device's services between connections and uses it while the device's Database Hash is
/// unchanged: a copy taken while the device's services were changing can lack one for good. The session notices two
/// set-ups in a row failing on a characteristic the copy lacks, and has BlueZ forget the device, unless it is bonded.
@Suite(.timeLimit(.minutes(1))) struct StaleServicesTests {
    @Test func twoSetUpsInARowMissingACharacteristicForgetTheCopy() {
        var watch = StaleServicesWatch()
        #expect(watch.setUpFailed(missing: "2a19") == nil, "one miss may be the device changing")
        #expect(watch.setUpFailed(missing: "2a19") == "2a19")
        #expect(watch.setUpFailed(missing: "2a19") == nil, "the count starts over once forgotten")
        #expect(watch.setUpFailed(missing: nil) == nil)
        #expect(watch.setUpFailed(missing: "2a19") == nil, "a set-up that failed otherwise breaks the row")
        watch.setUpSucceeded()
        #expect(watch.setUpFailed(missing: "2a19") == nil, "so does one that succeeded")
        #expect(watch.setUpFailed(missing: "2a37") == "2a37")
    }

    @Test func aDeviceWhoseServicesBlueZHoldsStaleIsRemovedAndDiscoveredAfresh() async throws {
        try await InMemoryGateway.with { gateway in
            let stale = InMemoryDevices.cprBand()
            let (central, device) = (gateway.central, stale.device)
            await stale.setLacking([CPRBandGATT.Characteristic.battery]) {
                try? await central.removeDevice(devicePath: device.path, adapterPath: device.adapterPath)
            }
            let id = DeviceID.from(address: device.address)
            central.add(stale)
            await gateway.log.waitForLine(containing: "removed the device from BlueZ")
            #expect(await stale.connectTimeouts.count == 2, "forgotten after its second failed set-up")
            #expect(await stale.forgotten == 1)
            #expect(central.removedDevices == [device.path])

            // Discovery sees the device again, and BlueZ discovers its services afresh: it connects.
            let fresh = InMemoryDevices.cprBand()
            let seen = gateway.probe.mark
            central.add(fresh)
            await gateway.probe.next(on: "cpr/\(id)/connection", after: seen) { $0 == "connected" }
            #expect(await stale.connectTimeouts.count == 2, "the forgotten copy is not tried again")
        }
    }

    @Test func aBondedDeviceKeepsItsBondAndTheLogSaysWhatToDo() async throws {
        try await InMemoryGateway.with { gateway in
            let band = InMemoryDevices.cprBand()
            let bonded = InMemoryLink(
                device: BlueZDevice(address: band.device.address, name: band.device.name, paired: true),
                services: [CPRBandGATT.service], values: [:])
            await bonded.setLacking([CPRBandGATT.Characteristic.battery])
            gateway.central.add(bonded)
            await gateway.log.waitForLine(containing: "bluetoothctl remove \(band.device.address)) and pair it again")
            #expect(await bonded.forgotten == 0)
            #expect(gateway.central.removedDevices.isEmpty)
        }
    }
}
