import BlueZ

/// The gateway's adapters: their retained status (`gatt2mqtt/<gateway>/adapter/<name>` and the summary on
/// `gatt2mqtt/<gateway>/adapter`), and LE discovery kept on on each. Owns the statuses' board.
struct AdapterWatch: Sendable {
    let context: GatewayContext
    let statuses: AdapterStatusBoard
    /// Told of every change: the gateway's `info` lists the adapters.
    let info: GatewayInfo

    /// Reads every adapter's status from BlueZ and publishes the changed ones.
    func refresh() async {
        let bluez = context.bluez
        for name in context.configuration.adapters {
            let status = AdapterStatus.of(
                powered: await bluez.adapter(named: name)?.powered, serviceRunning: await bluez.isServiceRunning,
                accessDenied: bluez.accessDenied)
            publish(status, of: name)
        }
    }

    /// Takes what BlueZ says of an adapter, and leaves every other event alone. The adapter's state comes from
    /// the event itself: by the time it is handled, the cache may already hold a bluetoothd that came back.
    func take(_ event: BlueZEvent) async {
        switch event {
        case .serviceVanished:
            for name in context.configuration.adapters { publish(.missing, of: name) }
        case .interfacesRemoved(let path, let interfaces) where interfaces.contains(BlueZInterface.adapter):
            if let name = context.adapterName(path) { publish(.missing, of: name) }
        case .interfacesAdded(let path, _) where context.adapterName(path) != nil:
            await refresh()
        case .propertiesChanged(let path, BlueZInterface.adapter, let changed, _):
            if let name = context.adapterName(path), let powered = changed["Powered"]?.bool {
                publish(powered ? .powered : .off, of: name)
            }
        default:
            break
        }
    }

    /// Publishes an adapter's status when it changed, and the summary when that changed (both retained).
    func publish(_ status: AdapterStatus, of name: String) {
        let (changed, summary) = statuses.record(status, of: name)
        if changed {
            context.logger.info("adapter \(status.rawValue)", metadata: ["adapter": "\(name)"])
            context.publisher.publish(.state(context.topics.adapter(name), status.rawValue))
            info.refresh()
        }
        if let summary { context.publisher.publish(.state(context.topics.adapter, summary.rawValue)) }
    }

    /// Keeps LE discovery running on every adapter, starting it again after BlueZ comes back.
    func keepDiscovering() async {
        let bluez = context.bluez
        while !Task.isCancelled {
            for name in context.configuration.adapters {
                guard let adapter = await bluez.adapter(named: name), adapter.powered, !adapter.discovering else {
                    continue
                }
                do {
                    if try await bluez.startDiscovery(adapterPath: adapter.path) {
                        context.logger.info("discovery started", metadata: ["adapter": "\(name)"])
                    }
                } catch {
                    context.logger.warning("cannot start discovery: \(error)", metadata: ["adapter": "\(name)"])
                }
            }
            try? await Task.sleep(for: .seconds(2))
        }
    }
}
