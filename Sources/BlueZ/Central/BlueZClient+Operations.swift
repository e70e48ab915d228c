import DBus

/// Calls on adapters, devices and characteristics.
extension BlueZClient {
    /// Sets an LE discovery filter and starts discovery; a discovery already running for this client is fine.
    /// While a connection or pairing holds discovery paused, it starts when the last one ends instead;
    /// returns whether it started now.
    @discardableResult
    public func startDiscovery(adapterPath: String, filter: DiscoveryFilter = DiscoveryFilter()) async throws -> Bool {
        try await discoveryTurns.withTurn(on: adapterPath) {
            guard discoveryGate.want(adapterPath, filter: filter) else { return false }
            try await requestDiscovery(adapterPath: adapterPath, filter: filter)
            return true
        }
    }

    public func stopDiscovery(adapterPath: String) async throws {
        try await discoveryTurns.withTurn(on: adapterPath) {
            discoveryGate.unwant(adapterPath)
            _ = try await connection.call(
                destination: BlueZInterface.service, path: adapterPath, interface: BlueZInterface.adapter,
                member: "StopDiscovery", timeout: operationTimeout)
        }
    }

    private func requestDiscovery(adapterPath: String, filter: DiscoveryFilter) async throws {
        _ = try await connection.call(
            destination: BlueZInterface.service, path: adapterPath, interface: BlueZInterface.adapter,
            member: "SetDiscoveryFilter", arguments: [filter.dbusValue], timeout: operationTimeout)
        do {
            _ = try await connection.call(
                destination: BlueZInterface.service, path: adapterPath, interface: BlueZInterface.adapter,
                member: "StartDiscovery", timeout: operationTimeout)
        } catch let error as DBusError where error.name == "org.bluez.Error.InProgress" {
            // This client already has a discovery session.
        }
    }

    /// `/org/bluez/hci0` of `/org/bluez/hci0/dev_…`.
    static func adapterPath(of devicePath: String) -> String {
        devicePath.split(separator: "/").prefix(3).reduce("") { $0 + "/" + $1 }
    }

    /// Runs `body` (a connect or a pairing) with this client's discovery on the device's adapter
    /// stopped, and starts discovery again after the last such body (see `DiscoveryGate`).
    func withDiscoveryPaused<T: Sendable>(devicePath: String, _ body: () async throws -> T) async throws -> T {
        let adapterPath = Self.adapterPath(of: devicePath)
        // Discovery is started, stopped and resumed one change at a time per adapter, so a pause never
        // misses a start still under way (the kernel then holds the connection back for 10 s).
        try await discoveryTurns.withTurn(on: adapterPath) {
            guard discoveryGate.pause(adapterPath) else { return }
            do {
                _ = try await connection.call(
                    destination: BlueZInterface.service, path: adapterPath, interface: BlueZInterface.adapter,
                    member: "StopDiscovery", timeout: operationTimeout)
            } catch {
                logger.debug("discovery not stopped before connecting: \(error)")
            }
            // Another client's discovery may keep the adapter discovering: wait a little, then go on.
            _ = await cache.wait(for: adapterPath, timeout: .seconds(2)) {
                $0?[BlueZInterface.adapter]?["Discovering"]?.bool != true
            }
        }
        let result: Result<T, any Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        try? await discoveryTurns.withTurn(on: adapterPath) {
            guard let filter = discoveryGate.resume(adapterPath) else { return }
            do {
                try await requestDiscovery(adapterPath: adapterPath, filter: filter)
            } catch {
                logger.warning("discovery not started again after connecting: \(error)")
            }
        }
        return try result.get()
    }

    /// Connects and waits until services are resolved (Connect returns before GATT discovery ends).
    public func connect(devicePath: String, timeout: Duration = .seconds(10)) async throws {
        try await withDiscoveryPaused(devicePath: devicePath) {
            try await adapterTurns.withTurn(on: Self.adapterPath(of: devicePath)) {
                try await connectNow(devicePath: devicePath, timeout: timeout)
            }
        }
    }

    private func connectNow(devicePath: String, timeout: Duration) async throws {
        try await operationQueue(for: devicePath).run { [self] in
            let linkedBefore = await device(at: devicePath)?.connected == true
            if try await connectAndResolve(devicePath, timeout: linkedBefore ? .seconds(5) : timeout) { return }
            guard linkedBefore else {
                throw DBusError(name: "org.bluez.Error.Failed", message: "services not resolved within \(timeout)")
            }
            // A link that outlived a bluetoothd restart: the new bluetoothd calls it connected, answers Connect
            // at once and never resolves its services. Take it down and connect afresh.
            logger.info("a link without services, left from before bluetoothd restarted: connecting afresh", metadata: ["device": "\(devicePath)"])
            _ = try? await connection.call(
                destination: BlueZInterface.service, path: devicePath, interface: BlueZInterface.device,
                member: "Disconnect", timeout: operationTimeout)
            guard try await connectAndResolve(devicePath, timeout: timeout) else {
                throw DBusError(name: "org.bluez.Error.Failed", message: "services not resolved within \(timeout)")
            }
        }
    }

    /// Connect, then waits for ServicesResolved; returns whether it came within `timeout`.
    private func connectAndResolve(_ devicePath: String, timeout: Duration) async throws -> Bool {
        _ = try await connection.call(
            destination: BlueZInterface.service, path: devicePath, interface: BlueZInterface.device,
            member: "Connect", timeout: timeout)
        return await cache.wait(for: devicePath, timeout: timeout) {
            $0?[BlueZInterface.device]?["ServicesResolved"]?.bool == true
        }
    }

    /// Disconnects; a device that is not connected is fine (as BlueZ 5.66 answers).
    public func disconnect(devicePath: String) async throws {
        router.close(under: devicePath)
        _ = try await connection.call(
            destination: BlueZInterface.service, path: devicePath, interface: BlueZInterface.device,
            member: "Disconnect", timeout: operationTimeout)
    }

    /// Reads a characteristic's value.
    public func read(characteristicPath: String, devicePath: String) async throws -> [UInt8] {
        try await operationQueue(for: devicePath).run { [self] in
            router.readStarted(characteristicPath)
            do {
                let reply = try await connection.call(
                    destination: BlueZInterface.service, path: characteristicPath, interface: BlueZInterface.gattCharacteristic,
                    member: "ReadValue", arguments: [.properties([:])], timeout: operationTimeout)
                let bytes = reply.first?.bytes ?? []
                router.readFinished(characteristicPath, bytes: bytes)
                return bytes
            } catch {
                router.readFinished(characteristicPath, bytes: nil)
                throw error
            }
        }
    }

    /// Writes a characteristic's value, with or without response.
    public func write(_ bytes: [UInt8], characteristicPath: String, devicePath: String, type: GattWriteType = .request) async throws {
        try await operationQueue(for: devicePath).run { [self] in
            _ = try await connection.call(
                destination: BlueZInterface.service, path: characteristicPath, interface: BlueZInterface.gattCharacteristic,
                member: "WriteValue", arguments: [.bytes(bytes), .properties(["type": .string(type.rawValue)])],
                timeout: operationTimeout)
        }
    }

    /// Subscribes to a characteristic (StartNotify once, as BlueZ sessions are per client) and returns
    /// its notifications. The stream ends on ``stopNotifications(characteristicPath:devicePath:)``, when
    /// the device disconnects or its objects go away, and when BlueZ stops.
    public func notifications(characteristicPath: String, devicePath: String) async throws -> AsyncStream<[UInt8]> {
        try await operationQueue(for: devicePath).run { [self] in
            let stream = router.open(characteristicPath)
            do {
                _ = try await connection.call(
                    destination: BlueZInterface.service, path: characteristicPath, interface: BlueZInterface.gattCharacteristic,
                    member: "StartNotify", timeout: operationTimeout)
            } catch {
                router.close(characteristicPath)
                throw error
            }
            return stream
        }
    }

    /// Stops notifications, then ends the stream: values BlueZ sent before it answered StopNotify
    /// come before its reply on the bus, so the stream still delivers them before it ends (unless a
    /// new stream replaced it meanwhile).
    public func stopNotifications(characteristicPath: String, devicePath: String) async throws {
        let stream = router.generation(of: characteristicPath)
        defer { if let stream { router.close(characteristicPath, generation: stream) } }
        try await operationQueue(for: devicePath).run { [self] in
            _ = try await connection.call(
                destination: BlueZInterface.service, path: characteristicPath, interface: BlueZInterface.gattCharacteristic,
                member: "StopNotify", timeout: operationTimeout)
        }
    }
}
