import DBus

/// Queries of the cached object tree.
extension BlueZClient {
    /// The adapter called `name` (e.g. `hci0`), if BlueZ has it.
    public func adapter(named name: String) async -> BlueZAdapter? {
        let path = "/org/bluez/" + name
        guard let properties = await cache.objects[path]?[BlueZInterface.adapter] else { return nil }
        return BlueZAdapter(path: path, properties: properties)
    }

    /// Waits up to `timeout` for the adapter called `name` to exist and be powered.
    public func waitForAdapter(named name: String, timeout: Duration) async -> BlueZAdapter? {
        let path = "/org/bluez/" + name
        _ = await cache.wait(for: path, timeout: timeout) { $0?[BlueZInterface.adapter]?["Powered"]?.bool == true }
        return await adapter(named: name)
    }

    /// Waits up to `timeout` until the device at `devicePath` is not connected (or gone); returns whether it is.
    public func waitUntilDisconnected(devicePath: String, timeout: Duration) async -> Bool {
        await cache.wait(for: devicePath, timeout: timeout) { interfaces in
            interfaces?[BlueZInterface.device].flatMap { BlueZDevice(path: devicePath, properties: $0) }?.hasLink
                != true
        }
    }

    /// Every device BlueZ knows on the adapter at `adapterPath`.
    public func devices(on adapterPath: String) async -> [BlueZDevice] {
        await cache.devices(on: adapterPath)
    }

    public func device(at path: String) async -> BlueZDevice? {
        await cache.devices[path]
    }

    /// The path of the characteristic `characteristicUUID` in service `serviceUUID` of the device.
    public func characteristicPath(
        device devicePath: String, service serviceUUID: String, characteristic characteristicUUID: String
    ) async -> String? {
        let objects = await cache.objects
        let servicePaths = objects.compactMap { path, interfaces -> String? in
            guard let service = interfaces[BlueZInterface.gattService], service["Device"]?.string == devicePath,
                service["UUID"]?.string?.lowercased() == serviceUUID.lowercased()
            else { return nil }
            return path
        }
        return objects.first { _, interfaces in
            guard let characteristic = interfaces[BlueZInterface.gattCharacteristic],
                let service = characteristic["Service"]?.string
            else { return false }
            return servicePaths.contains(service)
                && characteristic["UUID"]?.string?.lowercased() == characteristicUUID.lowercased()
        }?.key
    }
}

extension BlueZClient {
    /// The path of the characteristic `characteristicUUID` in any service of the device (some vendors'
    /// clients match by characteristic alone, and their services are not documented).
    public func characteristicPath(device devicePath: String, characteristic characteristicUUID: String) async
        -> String?
    {
        let wanted = characteristicUUID.lowercased()
        return await cache.objects.filter { path, interfaces in
            path.hasPrefix(devicePath + "/")
                && interfaces[BlueZInterface.gattCharacteristic]?["UUID"]?.string?.lowercased() == wanted
        }.keys.sorted().first
    }

    /// The UUIDs of the device's resolved GATT services.
    public func serviceUUIDs(device devicePath: String) async -> Set<String> {
        Set(
            await cache.objects.compactMap { path, interfaces in
                path.hasPrefix(devicePath + "/")
                    ? interfaces[BlueZInterface.gattService]?["UUID"]?.string?.lowercased() : nil
            })
    }
}

extension BlueZClient {
    /// The UUIDs of every characteristic of the device's resolved services.
    /// The battery level bluetoothd read from the device's Battery Service (`Battery1.Percentage`): its
    /// battery plugin claims 180F, so 2A19 is not exported as a GATT characteristic. Nil without one.
    public func batteryPercentage(device devicePath: String) async -> UInt8? {
        await cache.objects[devicePath]?[BlueZInterface.battery]?["Percentage"]?.uint8
    }

    public func characteristicUUIDs(device devicePath: String) async -> [String] {
        await cache.objects.compactMap { path, interfaces in
            path.hasPrefix(devicePath + "/")
                ? interfaces[BlueZInterface.gattCharacteristic]?["UUID"]?.string?.lowercased() : nil
        }.sorted()
    }
}
