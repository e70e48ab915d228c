import DBus

/// Discovery, kept running for the bridge and paused around each connect and pair (see `DiscoveryGate`).
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
            try await requestStop(adapterPath: adapterPath)
        }
    }

    private func requestStop(adapterPath: String) async throws {
        _ = try await connection.call(
            destination: BlueZInterface.service, path: adapterPath, interface: BlueZInterface.adapter,
            member: "StopDiscovery", timeout: operationTimeout)
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

    /// Runs `body` (a connect or a pairing) with this client's discovery on the device's adapter
    /// stopped, and starts discovery again after the last such body (see `DiscoveryGate`).
    func withDiscoveryPaused<T: Sendable>(devicePath: String, _ body: () async throws -> T) async throws -> T {
        let adapterPath = BlueZDevice.adapterPath(of: devicePath)
        // Discovery is started, stopped and resumed one change at a time per adapter, so a pause never
        // misses a start still under way (the kernel then holds the connection back for 10 s).
        try await discoveryTurns.withTurn(on: adapterPath) {
            guard discoveryGate.pause(adapterPath) else { return }
            do {
                try await requestStop(adapterPath: adapterPath)
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
}
