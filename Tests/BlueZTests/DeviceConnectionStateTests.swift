import DBus
import Testing

@testable import BlueZ

/// A device's link as the bridge sees it: bluetoothd's `Connected`, or resolved services, which BlueZ
/// has only over a link (bluetoothd 5.66 does not always signal `Connected`).
struct DeviceConnectionStateTests {
    private func device(connected: Bool?, servicesResolved: Bool?) -> BlueZDevice? {
        var properties: [String: DBusValue] = ["Address": .string("00:AA:01:01:00:01")]
        if let connected { properties["Connected"] = .variant(.boolean(connected)) }
        if let servicesResolved { properties["ServicesResolved"] = .variant(.boolean(servicesResolved)) }
        return BlueZDevice(path: "/org/bluez/hci0/dev_00_AA_01_01_00_01", properties: properties)
    }

    @Test(arguments: [
        (true, false, true), (false, false, false), (false, true, true), (true, true, true),
    ])
    func aLinkIsConnectedOrResolvedServices(connected: Bool, servicesResolved: Bool, expected: Bool) throws {
        let seen = try #require(device(connected: connected, servicesResolved: servicesResolved))
        #expect(seen.hasLink == expected)
        #expect(seen.connected == connected, "bluetoothd's own property stays as it said")
        #expect(seen.servicesResolved == servicesResolved)
    }

    @Test func aDeviceWithoutEitherPropertyIsNotConnected() throws {
        let seen = try #require(device(connected: nil, servicesResolved: nil))
        #expect(!seen.hasLink)
    }

    /// A device's advertised manufacturer data (`a{qv}`): the companies it names, which a declaration may match.
    @Test func theCompaniesOfItsManufacturerDataAreItsKeys() throws {
        let data: DBusValue = .variant(
            .dictionary(
                keySignature: "q", valueSignature: "v",
                [
                    DBusDictEntry(.uint16(0x0059), .variant(.array(elementSignature: "y", [.byte(1)]))),
                    DBusDictEntry(.uint16(0x004C), .variant(.array(elementSignature: "y", []))),
                ]))
        let seen = try #require(
            BlueZDevice(
                path: "/org/bluez/hci0/dev_00_AA_01_01_00_01",
                properties: ["Address": .string("00:AA:01:01:00:01"), "ManufacturerData": data]))
        #expect(seen.manufacturerIDs == [0x004C, 0x0059])
        #expect(try #require(device(connected: nil, servicesResolved: nil)).manufacturerIDs == [])
    }
}
