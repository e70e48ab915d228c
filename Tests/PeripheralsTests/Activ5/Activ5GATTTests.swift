import Testing

@testable import Peripherals

@Suite struct Activ5GATTTests {
    @Test(arguments: [
        (Activ5GATT.Service.legacy, "00005000-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Service.newProtocol, "0000f0f0-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Service.battery, "0000180f-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Service.deviceInformation, "0000180a-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Service.humanInterfaceDevice, "00001812-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.advertisedServiceUUID, "00005000-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.legacyMessages, "00005a01-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.legacyCommands, "00005a02-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.force, "0000f0fe-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.olderForce, "0000f0f1-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.timestamp, "0000f0f3-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.imu, "0000f0f5-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.deviceIDPart1, "0000f0f7-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.deviceIDPart2, "0000f0f8-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.samplePeriod, "0000f0fa-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.batteryLevel, "00002a19-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.serialNumber, "00002a25-0000-1000-8000-00805f9b34fb"),
        (Activ5GATT.Characteristic.clientConfiguration, "00002902-0000-1000-8000-00805f9b34fb"),
    ])
    func uuidsAreFullLowerCase(actual: String, expected: String) {
        #expect(actual == expected)
    }

    @Test func legacyProfileExportsOnlyTheCommandChannel() {
        let services = Activ5GATT.services(for: .legacy)
        #expect(services.map(\.uuid) == ["00005000-0000-1000-8000-00805f9b34fb"])
        let table = services[0].characteristics.map { ($0.uuid, $0.flags.bluezFlags) }
        #expect(table.map(\.0) == [Activ5TestBytes.legacyMessages, Activ5TestBytes.legacyCommands])
        #expect(table.map(\.1) == [["notify"], ["write"]])
    }

    @Test func newProfileExportsF0F0BatteryAndDeviceInformation() {
        let services = Activ5GATT.services(for: .new)
        #expect(
            services.map(\.uuid) == [
                "00005000-0000-1000-8000-00805f9b34fb", "0000f0f0-0000-1000-8000-00805f9b34fb",
                "0000180f-0000-1000-8000-00805f9b34fb", "0000180a-0000-1000-8000-00805f9b34fb",
            ])
        var flags: [String: [String]] = [:]
        for characteristic in services.flatMap(\.characteristics) {
            flags[characteristic.uuid] = characteristic.flags.bluezFlags
        }
        #expect(
            flags == [
                Activ5TestBytes.legacyMessages: ["notify"], Activ5TestBytes.legacyCommands: ["write"],
                Activ5TestBytes.force: ["notify"], Activ5TestBytes.imu: ["notify"], Activ5TestBytes.timestamp: ["read"],
                Activ5TestBytes.deviceID1: ["read"], Activ5TestBytes.deviceID2: ["read"],
                Activ5TestBytes.samplePeriod: ["write"], Activ5TestBytes.battery: ["read"],
                Activ5TestBytes.serial: ["read"],
            ])
        #expect(services[2].characteristics.map(\.uuid) == [Activ5TestBytes.battery])
        #expect(services[3].characteristics.map(\.uuid) == [Activ5TestBytes.serial])
    }

    @Test func characteristicLookupAcceptsAnySpelling() {
        #expect(Activ5GATT.characteristic("F0FA")?.flags == [.write])
        #expect(Activ5GATT.characteristic("0x5a01")?.uuid == Activ5TestBytes.legacyMessages)
        #expect(Activ5GATT.characteristic("F0F1") == nil)
    }

    @Test(arguments: [
        (String?.none, ["00005000-0000-1000-8000-00805f9b34fb"], true),
        (nil, ["5000"], true),
        ("whatever", ["0x5000"], true),
        ("ACTIV5-AC-4706", [], true),
        ("TAO-0815", [], true),
        ("My ACTIV band", [], true),
        ("activ5-ac-4706", [], false),
        ("activity tracker", [], false),
        ("Headphones", ["0000180f-0000-1000-8000-00805f9b34fb"], false),
        (nil, [], false),
    ])
    func advertisementMatchesServiceOrAndroidName(name: String?, services: [String], expected: Bool) {
        #expect(Activ5Advertisement.matches(name: name, serviceUUIDs: services) == expected)
    }

    @Test(arguments: [
        ([String](["5000"]), [String](["5A01", "5A02"]), Activ5Protocol.legacy),
        (["5000", "F0F0"], ["5A01", "5A02"], .new),
        (["00005000-0000-1000-8000-00805f9b34fb"], ["0000f0fe-0000-1000-8000-00805f9b34fb"], .new),
        (["0xf0f0"], [], .new),
        (["5000", "180F"], ["5A01", "5A02", "2A19"], .legacy),
        ([], ["F0F1"], .legacy),
    ])
    func protocolIsNewWithF0F0OrF0FE(services: [String], characteristics: [String], expected: Activ5Protocol) {
        #expect(Activ5Protocol.detect(serviceUUIDs: services, characteristicUUIDs: characteristics) == expected)
    }

    @Test func gameModeIsTheHIDService() {
        #expect(Activ5Protocol.isInGameMode(serviceUUIDs: ["5000", "1812"]))
        #expect(!Activ5Protocol.isInGameMode(serviceUUIDs: ["5000", "F0F0"]))
    }
}
