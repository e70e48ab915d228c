import Testing

@testable import Peripherals

@Suite struct CPRBandGATTTests {
    @Test func uuidsAreFullLowerCase() {
        #expect(CPRBandGATT.service == "0000fff0-0000-1000-8000-00805f9b34fb")
        #expect(CPRBandGATT.Characteristic.depth == "0000fff1-0000-1000-8000-00805f9b34fb")
        #expect(CPRBandGATT.Characteristic.angle == "0000fff2-0000-1000-8000-00805f9b34fb")
        #expect(CPRBandGATT.Characteristic.battery == "0000fff3-0000-1000-8000-00805f9b34fb")
        #expect(CPRBandGATT.Characteristic.command == "0000fff4-0000-1000-8000-00805f9b34fb")
        #expect(CPRBandGATT.clientCharacteristicConfiguration == "00002902-0000-1000-8000-00805f9b34fb")
        #expect(
            CPRBandGATT.notifyingCharacteristics == [
                CPRBandGATT.Characteristic.depth, CPRBandGATT.Characteristic.angle,
            ])
    }

    @Test(arguments: [
        ("FFF1", ["notify"]),
        ("0xfff2", ["notify"]),
        ("0000FFF3-0000-1000-8000-00805F9B34FB", ["read"]),
        ("fff4", ["write"]),
    ])
    func simulatorFlagsFollowClientUse(uuid: String, flags: [String]) {
        let description = CPRBandGATT.characteristic(uuid)
        #expect(description?.flags.bluezFlags == flags)
        #expect(description?.service == CPRBandGATT.service)
    }

    @Test func tableHasFourCharacteristicsInHandleOrder() {
        #expect(CPRBandGATT.characteristics.map(\.name) == ["depth", "angle", "battery", "command"])
        #expect(CPRBandGATT.characteristic("FFF5") == nil)
    }

    @Test(arguments: [
        ("CPR-BAND", true),
        ("CPR-NewName", true),
        ("cpr-band", true),
        ("CPR-01            ", true),
        ("  CPR-BAND", true),
        ("CPR", false),
        ("CPRBAND", false),
        ("AIO-manikin", false),
        ("", false),
    ])
    func matchesOnTheCPRPrefix(name: String, expected: Bool) {
        #expect(CPRBandAdvertisement.matches(name: name) == expected)
    }

    @Test func noNameNeverMatches() {
        #expect(!CPRBandAdvertisement.matches(name: nil))
        #expect(CPRBandAdvertisement.factoryName == "CPR-BAND")
        #expect(CPRBandAdvertisement.busScanDurationSeconds == 15)
        #expect(CPRBandAdvertisement.maximumConcurrentBands == 6)
    }
}
