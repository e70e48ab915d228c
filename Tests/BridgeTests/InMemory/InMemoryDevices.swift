import BlueZ
import Peripherals

@testable import Bridge

/// Devices in memory that answer as their family's devices do, for sessions and whole gateways under test.
enum InMemoryDevices {
    /// A device of each family, by the family's name: the tests that go through every registered family take their
    /// devices here (`of(_:address:)`), so a family added to the registry fails them until it has one.
    private static let byFamily: [String: @Sendable (String) -> InMemoryLink] = [
        "belt": { belt(address: $0) }, "a5": { activ5(address: $0) }, "cpr": { cprBand(address: $0) },
        "grip": { grip(address: $0) }, "hr": { heartRate(address: $0) },
    ]

    /// A device of `family` at `address`; nil for a family that has none here yet.
    static func of(_ family: DeviceFamily, address: String) -> InMemoryLink? {
        byFamily[family.rawValue].map { $0(address) }
    }

    /// A naviBelt ("naviGuertel"): firmware 46, battery 80 %, in app mode; it answers the handshake's parameter requests on FE06.
    /// `rssi`: what the link's device reports BlueZ measured (`GATTLink.current()`); `confirmsModes`: false for a belt
    /// whose confirmations of mode changes never come; `mode`: what it answers the handshake's request for its mode.
    static func belt(
        address: String = "00:11:22:33:44:66", name: String = "naviGuertel 01", rssi: Int16? = nil,
        confirmsModes: Bool = true, mode: BeltMode = .app
    ) -> InMemoryLink {
        var device = BlueZDevice(address: address, name: name)
        device.rssi = rssi
        return InMemoryLink(
            device: device, services: Set(BeltGATT.characteristics.map(\.service)),
            values: [
                BeltGATT.Characteristic.firmwareInfo: BeltFirmwareInfo(version: 46).encoded(),
                BeltGATT.Characteristic.batteryStatus:
                    BeltNotification.battery(
                        BeltBatteryStatus(powerStatus: .battery, levelPercent: 80, timeSeconds: 3600)
                    ).encoded(),
            ],
            answer: beltAnswers(mode: mode, confirmsModes: confirmsModes))
    }

    /// The belt's answers to the handshake's requests (its mode `mode`) and, when it `confirmsModes`, to mode changes,
    /// on its parameter notification characteristic.
    private static func beltAnswers(mode: BeltMode, confirmsModes: Bool)
        -> @Sendable (InMemoryLink.Write) -> [(characteristic: String, bytes: [UInt8])]
    {
        let confirmations: [([UInt8], BeltParameterValue)] =
            confirmsModes ? BeltMode.allCases.map { (BeltCommand.changeMode($0).encoded(), .mode($0)) } : []
        let answers: [([UInt8], BeltParameterValue)] =
            [
                (BeltCommand.requestMode.encoded(), .mode(mode)),
                (BeltCommand.requestDefaultIntensity.encoded(), .defaultIntensity(50)),
                (BeltCommand.requestHeadingOffset.encoded(), .headingOffset(45)),
                (BeltCommand.requestAdvancedParameter(.accuracySignal).encoded(), .accuracySignal(.compassMode)),
            ] + confirmations
        return { write in
            guard let value = answers.first(where: { $0.0 == write.bytes })?.1 else { return [] }
            return [(BeltGATT.Characteristic.parameterNotification, BeltNotification.parameter(value).encoded())]
        }
    }

    /// A new-protocol Activ5: it advertises service 5000, answers the handshake's reads (serial number, both halves
    /// of its device ID, battery 87 %) and greets the subscription to 5A01 with `TC5k;1.00;04;BATOK`.
    static func activ5(address: String = "00:11:22:33:44:99", name: String = "ACTIV5-AC-4706") -> InMemoryLink {
        var device = BlueZDevice(address: address, name: name)
        device.serviceUUIDs = [Activ5GATT.advertisedServiceUUID]
        let layout = Activ5GATT.services(for: .new)
        let c = Activ5GATT.Characteristic.self
        var values = Dictionary(uniqueKeysWithValues: layout.flatMap(\.characteristics).map { ($0.uuid, [UInt8]()) })
        values[c.serialNumber] = Array("A5SIM0001".utf8)
        values[c.deviceIDPart1] = Array("AC47".utf8)
        values[c.deviceIDPart2] = Array("06".utf8) + [0, 0]
        values[c.batteryLevel] = [87]
        let status = Activ5DeviceStatus(firmwareVersion: "1.00")
        return InMemoryLink(
            device: device, services: Set(layout.map(\.uuid)), values: values,
            greetings: [c.legacyMessages: Activ5LegacyFraming.message(status.payload)])
    }

    /// A CPR-Band with its battery at 208 (4.16 V); its handshake needs no answer.
    static func cprBand(address: String = "00:11:22:33:44:55", name: String = "CPR-Band 01") -> InMemoryLink {
        InMemoryLink(
            device: BlueZDevice(address: address, name: name), services: [CPRBandGATT.service],
            values: [CPRBandGATT.Characteristic.battery: [208]])
    }

    /// A camera grip as the placeholder profile describes it, firmware 2.0.0 and battery 76 %; `paired`: bonded to
    /// the gateway already (a bonded grip connects by itself).
    static func grip(address: String = "00:11:22:33:44:77", name: String = "Fjorden Grip", paired: Bool = true)
        -> InMemoryLink
    {
        let profile = GripProfile.placeholder
        let information = profile.deviceInformation
        var device = BlueZDevice(address: address, name: name)
        device.paired = paired
        return InMemoryLink(
            device: device, services: [profile.eventServiceUUID, profile.battery.serviceUUID, information.serviceUUID],
            values: [
                information.manufacturerNameUUID: profile.encodedDeviceInformation("Fjorden"),
                information.modelNumberUUID: profile.encodedDeviceInformation("Grip"),
                information.hardwareRevisionUUID: profile.encodedDeviceInformation("1"),
                information.firmwareRevisionUUID: profile.encodedDeviceInformation("2.0.0"),
                profile.battery.levelCharacteristicUUID: profile.encodedBattery(level: 76),
            ])
    }

    /// A standard heart rate strap: worn on the chest, battery 90 %, with a control point unless `controlPoint` is
    /// false (a strap that counts no energy). It advertises the Heart Rate service, which is how it is recognised.
    static func heartRate(address: String = "00:11:22:33:44:88", name: String = "HRM-SIM", controlPoint: Bool = true)
        -> InMemoryLink
    {
        var device = BlueZDevice(address: address, name: name)
        device.serviceUUIDs = [HeartRateGATT.Service.heartRate]
        var values: [String: [UInt8]] = [
            HeartRateGATT.Characteristic.measurement: [],
            HeartRateGATT.Characteristic.bodySensorLocation: HeartRateBodySensorLocation.chest.encoded(),
            HeartRateGATT.Characteristic.batteryLevel: HeartRateBatteryLevel(clampingPercent: 90).encoded(),
        ]
        if controlPoint { values[HeartRateGATT.Characteristic.controlPoint] = [] }
        return InMemoryLink(
            device: device, services: [HeartRateGATT.Service.heartRate, HeartRateGATT.Service.battery], values: values)
    }
}
