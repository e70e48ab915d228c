import DBus

/// Pairing, trust and forgetting devices.
extension BlueZClient {
    /// Pairs (bonds) with the device; a device that is already paired is fine.
    public func pair(devicePath: String, timeout: Duration = .seconds(30)) async throws {
        do {
            _ = try await withDiscoveryPaused(devicePath: devicePath) {
                try await connection.call(
                    destination: BlueZInterface.service, path: devicePath, interface: BlueZInterface.device,
                    member: "Pair", timeout: timeout)
            }
        } catch let error as DBusError where error.name == "org.bluez.Error.AlreadyExists" {
            // Already paired: bluetoothd answers AlreadyExists.
        }
    }

    /// Marks the device trusted, so that it may reconnect without asking.
    public func setTrusted(devicePath: String, _ trusted: Bool = true) async throws {
        _ = try await connection.call(
            destination: BlueZInterface.service, path: devicePath, interface: DBusStandardInterface.properties,
            member: "Set",
            arguments: [.string(BlueZInterface.device), .string("Trusted"), .variant(.boolean(trusted))],
            timeout: operationTimeout)
    }

    /// Removes the device and its bond (Adapter1.RemoveDevice); it must be discovered again afterwards.
    public func removeDevice(devicePath: String, adapterPath: String) async throws {
        endStreams(under: devicePath)
        _ = try await connection.call(
            destination: BlueZInterface.service, path: adapterPath, interface: BlueZInterface.adapter,
            member: "RemoveDevice", arguments: [.objectPath(devicePath)], timeout: .seconds(10))
    }

    /// Serves an agent and makes it the default, so that Just Works pairing needs nobody at a keyboard
    /// (`.justWorks`). A second agent may be refused (another client already has one); pairing without
    /// one still works for Just Works devices, so that is logged, not fatal.
    public func registerPairingAgent(
        path: String = "/org/gatt2mqtt/agent", policy: PairingAgentPolicy = .justWorks,
        onRefusal: @escaping @Sendable (_ method: String, _ devicePath: String) -> Void = { _, _ in }
    ) async {
        let agent = PairingAgent.object(path: path, policy: policy, logger: logger, onRefusal: onRefusal)
        do {
            try connection.export(agent)
            _ = try await connection.call(
                destination: BlueZInterface.service, path: "/org/bluez", interface: BlueZInterface.agentManager,
                member: "RegisterAgent", arguments: [.objectPath(path), .string(policy.capability)],
                timeout: operationTimeout)
            _ = try await connection.call(
                destination: BlueZInterface.service, path: "/org/bluez", interface: BlueZInterface.agentManager,
                member: "RequestDefaultAgent", arguments: [.objectPath(path)], timeout: operationTimeout)
            logger.info("pairing agent registered")
        } catch {
            logger.warning("pairing agent not registered: \(error)")
        }
    }
}
