import Testing

@testable import Peripherals

@Suite struct BeltAdvertisementTests {
    @Test(arguments: [
        ("naviGuertel-1234", [String](), true),
        ("NAVIGUERTEL", [], true),
        ("naviguertel", ["65333333-A115-11E2-9E9A-0800200CA100"], true),
        ("VS-dev", ["0000fe51-0000-1000-8000-00805f9b34fb"], true),
        ("vs42", ["65333333-a115-11e2-9e9a-0800200ca100"], true),
        ("vs42", ["FE51"], true),
        ("vs42", [], false),
        ("vs42", ["0000180f-0000-1000-8000-00805f9b34fb"], false),
        ("Shimmer3R", ["65333333-a115-11e2-9e9a-0800200ca100"], false),
        ("my naviGuertel", [], false),
    ])
    func matchesByNameAndUUID(name: String, uuids: [String], expected: Bool) {
        #expect(BeltAdvertisement.matches(name: name, serviceUUIDs: uuids) == expected)
    }

    @Test func uuidWithoutNameIsNotABelt() {
        #expect(!BeltAdvertisement.matches(name: nil, serviceUUIDs: [BeltGATT.advertisedServiceUUID]))
        #expect(!BeltAdvertisement.matches(name: nil, serviceUUIDs: [BeltGATT.Service.control]))
    }
}
