import Testing

@testable import Peripherals

@Suite struct BeltGATTTests {
    @Test(arguments: [
        (UInt16(0xFE51), "0000fe51-0000-1000-8000-00805f9b34fb"),
        (0xFE01, "0000fe01-0000-1000-8000-00805f9b34fb"),
        (0x0001, "00000001-0000-1000-8000-00805f9b34fb"),
    ])
    func expandsShortUUIDs(short: UInt16, full: String) {
        #expect(BluetoothUUID.expand(short) == full)
    }

    @Test(arguments: [
        ("FE51", "0000fe51-0000-1000-8000-00805f9b34fb"),
        ("0xFE51", "0000fe51-0000-1000-8000-00805f9b34fb"),
        ("0000FE51-0000-1000-8000-00805F9B34FB", "0000fe51-0000-1000-8000-00805f9b34fb"),
        (" 65333333-A115-11E2-9E9A-0800200CA100 ", "65333333-a115-11e2-9e9a-0800200ca100"),
    ])
    func normalisesUUIDs(input: String, expected: String) {
        #expect(BluetoothUUID.normalized(input) == expected)
    }

    @Test func constantsAreFullLowerCase() {
        #expect(BeltGATT.Service.control == "0000fe51-0000-1000-8000-00805f9b34fb")
        #expect(BeltGATT.Service.sensor == "0000fe52-0000-1000-8000-00805f9b34fb")
        #expect(BeltGATT.Service.debug == "0000fe53-0000-1000-8000-00805f9b34fb")
        #expect(BeltGATT.Characteristic.orientation == "0000fe0c-0000-1000-8000-00805f9b34fb")
        #expect(BeltGATT.Characteristic.debugOutput == "0000fe14-0000-1000-8000-00805f9b34fb")
        #expect(BeltGATT.advertisedServiceUUID == "65333333-a115-11e2-9e9a-0800200ca100")
    }

    @Test func tableHasThirteenCharacteristicsInTheRightServices() {
        let table = BeltGATT.characteristics
        #expect(table.count == 13)
        #expect(Set(table.map(\.uuid)).count == 13)
        let control = table.filter { $0.service == BeltGATT.Service.control }.map(\.uuid)
        #expect(control.count == 8)
        #expect(BeltGATT.characteristic("FE0C")?.service == BeltGATT.Service.sensor)
        #expect(BeltGATT.characteristic("fe13")?.service == BeltGATT.Service.debug)
        #expect(BeltGATT.characteristic("FE08") == nil)
    }

    @Test(arguments: [
        ("FE01", ["read"]),
        ("FE02", ["write", "notify"]),
        ("FE03", ["write"]),
        ("FE05", ["write"]),
        ("FE07", ["write"]),
        ("FE0A", ["write"]),
        ("FE13", ["write"]),
        ("FE04", ["notify"]),
        ("FE06", ["notify"]),
        ("FE0B", ["notify"]),
        ("FE0C", ["notify"]),
        ("FE14", ["notify"]),
        ("FE09", ["read", "notify"]),
    ])
    func flagsFollowClientUse(uuid: String, flags: [String]) {
        #expect(BeltGATT.characteristic(uuid)?.flags.bluezFlags == flags)
    }
}
