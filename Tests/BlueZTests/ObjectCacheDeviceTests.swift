import DBus
import Testing

@testable import BlueZ

/// The object cache keeps every Device1 parsed as the objects change, so that asking for an adapter's devices
/// parses nothing: what it answers must follow every change BlueZ signals.
struct ObjectCacheDeviceTests {
    private static let onHci0 = "/org/bluez/hci0/dev_00_AA_01_01_00_01"
    private static let onHci1 = "/org/bluez/hci1/dev_00_AA_01_01_00_01"

    private static func device(name: String, rssi: Int16) -> BlueZObjectCache.Interfaces {
        [BlueZInterface.device: ["Address": .string("00:AA:01:01:00:01"), "Name": .string(name), "RSSI": .int16(rssi)]]
    }

    @Test func anAdaptersDevicesFollowWhatBlueZSignals() async {
        let cache = BlueZObjectCache()
        await cache.interfacesAdded(Self.onHci0, Self.device(name: "belt", rssi: -60))
        await cache.interfacesAdded(Self.onHci1, Self.device(name: "belt", rssi: -70))
        // A device's GATT objects are no devices.
        await cache.interfacesAdded(
            Self.onHci0 + "/service0001", [BlueZInterface.gattService: ["UUID": .string("180f")]])
        #expect(await cache.devices(on: "/org/bluez/hci0").map(\.path) == [Self.onHci0])
        #expect(await cache.devices(on: "/org/bluez/hci1").map(\.rssi) == [-70])

        await cache.propertiesChanged(
            Self.onHci0, BlueZInterface.device,
            ["RSSI": .variant(.int16(-42)), "Name": .variant(.string("naviGuertel"))], [])
        #expect(await cache.devices[Self.onHci0]?.rssi == -42)
        #expect(await cache.devices[Self.onHci0]?.name == "naviGuertel")
        await cache.propertiesChanged(Self.onHci0, BlueZInterface.device, [:], ["Name"])
        #expect(await cache.devices[Self.onHci0]?.name == nil, "an invalidated property is gone")

        await cache.interfacesRemoved(Self.onHci0, [BlueZInterface.device])
        #expect(await cache.devices(on: "/org/bluez/hci0").isEmpty)
        #expect(await cache.devices[Self.onHci1] != nil, "the other adapter's object stays")

        await cache.serviceVanished()
        #expect(await cache.devices.isEmpty)
        await cache.load([Self.onHci0: Self.device(name: "belt", rssi: -55)])
        #expect(
            await cache.devices(on: "/org/bluez/hci0").map(\.rssi) == [-55], "a snapshot after bluetoothd came back")
    }
}
