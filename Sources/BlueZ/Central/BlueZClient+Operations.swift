import DBus

/// Calls on adapters, devices and characteristics.
extension BlueZClient {
    /// Connects and waits until services are resolved (Connect returns before GATT discovery ends).
    public func connect(devicePath: String, timeout: Duration = .seconds(10)) async throws {
        try await withDiscoveryPaused(devicePath: devicePath) {
            try await adapterTurns.withTurn(on: BlueZDevice.adapterPath(of: devicePath)) {
                try await connectNow(devicePath: devicePath, timeout: timeout)
            }
        }
    }

    private func connectNow(devicePath: String, timeout: Duration) async throws {
        try await gattTurns.withTurn(on: devicePath) { [self] in
            let linkedBefore = await device(at: devicePath)?.connected == true
            if try await connectAndResolve(devicePath, timeout: linkedBefore ? .seconds(5) : timeout) { return }
            if linkedBefore {
                // A link that outlived a bluetoothd restart: the new bluetoothd calls it connected, answers Connect
                // at once and never resolves its services. Take it down and connect afresh.
                logger.info(
                    "a link without services, left from before bluetoothd restarted: connecting afresh",
                    metadata: ["device": "\(devicePath)"])
                _ = try? await connection.call(
                    destination: BlueZInterface.service, path: devicePath, interface: BlueZInterface.device,
                    member: "Disconnect", timeout: operationTimeout)
                if try await connectAndResolve(devicePath, timeout: timeout) { return }
            }
            throw DBusError(name: "org.bluez.Error.Failed", message: "services not resolved within \(timeout)")
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
        endStreams(under: devicePath)
        _ = try await connection.call(
            destination: BlueZInterface.service, path: devicePath, interface: BlueZInterface.device,
            member: "Disconnect", timeout: operationTimeout)
    }

    /// Reads a characteristic's value.
    public func read(characteristicPath: String, devicePath: String) async throws -> [UInt8] {
        try await gattTurns.withTurn(on: devicePath) { [self] in
            router.readStarted(characteristicPath)
            do {
                let reply = try await connection.call(
                    destination: BlueZInterface.service, path: characteristicPath,
                    interface: BlueZInterface.gattCharacteristic,
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
    public func write(_ bytes: [UInt8], characteristicPath: String, devicePath: String, type: GattWriteType = .request)
        async throws
    {
        try await gattTurns.withTurn(on: devicePath) { [self] in
            _ = try await connection.call(
                destination: BlueZInterface.service, path: characteristicPath,
                interface: BlueZInterface.gattCharacteristic,
                member: "WriteValue", arguments: [.bytes(bytes), .properties(["type": .string(type.rawValue)])],
                timeout: operationTimeout)
        }
    }

    /// Subscribes to a characteristic and returns its notifications: through a socket of its own
    /// (AcquireNotify) where BlueZ offers one and the bus can pass it, else StartNotify (once, as BlueZ
    /// sessions are per client). The stream ends on ``stopNotifications(characteristicPath:devicePath:)``,
    /// when the device disconnects or its objects go away, and when BlueZ stops.
    public func notifications(
        characteristicPath: String, devicePath: String, lane: NotificationLane? = nil
    ) async throws -> AsyncStream<[UInt8]> {
        try await gattTurns.withTurn(on: devicePath) { [self] in
            let stream = router.open(characteristicPath, lane: lane)
            if await acquireNotifications(characteristicPath) { return stream }
            do {
                _ = try await connection.call(
                    destination: BlueZInterface.service, path: characteristicPath,
                    interface: BlueZInterface.gattCharacteristic,
                    member: "StartNotify", timeout: operationTimeout)
            } catch {
                router.close(characteristicPath)
                throw error
            }
            return stream
        }
    }

    /// AcquireNotify, when the characteristic offers it (`NotifyAcquired` is present) and this bus passes
    /// file descriptors (a TCP bus cannot); false leaves the subscription to StartNotify, as after an
    /// error (a peripheral application that serves no AcquireNotify under BlueZoo, for one).
    private func acquireNotifications(_ characteristicPath: String) async -> Bool {
        guard preferAcquiredNotifications,
            await cache.objects[characteristicPath]?[BlueZInterface.gattCharacteristic]?["NotifyAcquired"] != nil,
            let generation = router.generation(of: characteristicPath)
        else { return false }
        guard connection.canPassFileDescriptors else {
            logger.debug(
                "StartNotify: this bus cannot pass file descriptors",
                metadata: ["characteristic": "\(characteristicPath)"])
            return false
        }
        do {
            let reply = try await connection.call(
                destination: BlueZInterface.service, path: characteristicPath,
                interface: BlueZInterface.gattCharacteristic,
                member: "AcquireNotify", arguments: [.properties([:])], timeout: operationTimeout)
            guard let socket = reply.first?.fileDescriptor, socket >= 0 else { return false }
            notifySockets.start(socket, path: characteristicPath, generation: generation)
            logger.debug(
                "notifications through an acquired socket", metadata: ["characteristic": "\(characteristicPath)"])
            return true
        } catch {
            logger.debug(
                "AcquireNotify refused, StartNotify instead: \(error)",
                metadata: ["characteristic": "\(characteristicPath)"])
            return false
        }
    }

    /// Stops notifications, then ends the stream: values BlueZ sent before it answered StopNotify
    /// come before its reply on the bus, so the stream still delivers them before it ends (unless a
    /// new stream replaced it meanwhile).
    public func stopNotifications(characteristicPath: String, devicePath: String) async throws {
        if notifySockets.isHeld(characteristicPath) {
            // Closing the socket is the release (BlueZ's StopNotify would do the same).
            return notifySockets.release(characteristicPath)
        }
        let stream = router.generation(of: characteristicPath)
        defer { if let stream { router.close(characteristicPath, generation: stream) } }
        try await gattTurns.withTurn(on: devicePath) { [self] in
            _ = try await connection.call(
                destination: BlueZInterface.service, path: characteristicPath,
                interface: BlueZInterface.gattCharacteristic,
                member: "StopNotify", timeout: operationTimeout)
        }
    }
}
