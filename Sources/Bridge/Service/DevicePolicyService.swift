import BlueZ
import ServiceLifecycle

/// The device policy: follows BlueZ (`events`, taken before BlueZ started), has the sessions feature start a
/// session for each device the users' choices let connect, keeps the adapters' statuses and discovery up. Runs
/// inside `BlueZService`, so BlueZ is up: the gateway is ready. At shutdown it disconnects every device, all at once.
struct DevicePolicyService: Service {
    let sessions: DeviceSessions
    let adapters: AdapterWatch
    let notifier: SystemdNotifier
    let events: AsyncStream<BlueZEvent>

    func run() async {
        await cancelWhenGracefulShutdown {
            announceRunning()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await follow() }
                group.addTask { await adapters.keepDiscovering() }
            }
        }
        notifier.stopping(status: "disconnecting devices")
        await sessions.stopAll()
    }

    private func announceRunning() {
        let context = sessions.context
        sessions.adoptions.announce()
        sessions.homeAssistant.announceGateway()
        // The retained configs of earlier runs have been read (the leftovers): what no kept device has goes. In a
        // fleet once the others' claims have been listened to for a lease (`ClaimSubscriptions.mayBeOwnedElsewhere`),
        // and a settle period more for the listening to have begun: a device another gateway owns keeps its configs.
        sessions.homeAssistant.sweep(after: sessions.fleet.map { $0.policy.lease + $0.policy.settle } ?? .zero)
        let adapters = context.configuration.adapters.joined(separator: ",")
        context.logger.info(
            "bridge running", metadata: ["adapters": "\(adapters)", "gateway": "\(context.configuration.gateway)"])
        notifier.ready(status: "running on \(adapters) as gateway \(context.configuration.gateway)")
    }

    /// Reacts to BlueZ: new or changed devices may be served; a device that drops its link ends its session's link.
    private func follow() async {
        await sessions.considerAllDevices()
        await adapters.refresh()
        for await event in events {
            await adapters.take(event)
            await take(event)
        }
    }

    private func take(_ event: BlueZEvent) async {
        let bluez = sessions.context.bluez
        let table = sessions.table
        switch event {
        case .serviceVanished:
            for session in table.all { await session.linkDidDrop() }
        case .serviceAppeared:
            await adapters.refresh()
            await sessions.considerAllDevices()
        case .interfacesAdded(let path, let interfaces) where interfaces.contains(BlueZInterface.device):
            if let device = await bluez.device(at: path) {
                sessions.reportSighting(device)
                await sessions.considerDevice(device)
            }
            await sessions.publishInventory()
        case .propertiesChanged(let path, BlueZInterface.device, let changed, _):
            let session = table.session(at: path)?.session
            // Only while the link is still down: a late `Connected: false` of an earlier link (one a
            // `disconnect` request closed just before a `connect` request opened the next) must not
            // end the new one. The cache already holds what came after the event.
            if changed["Connected"]?.bool == false, let session, await bluez.device(at: path)?.connected != true {
                await session.linkReportedDisconnected(.connectedFalse)
            }
            if changed["Name"] != nil || changed["UUIDs"] != nil || changed["RSSI"] != nil,
                let device = await bluez.device(at: path)
            {
                sessions.reportSighting(device)
                await sessions.considerDevice(device)
            }
            if changed["Paired"] != nil || changed["Name"] != nil { await sessions.publishInventory() }
        case .interfacesRemoved(let path, let interfaces) where interfaces.contains(BlueZInterface.gattService):
            // The device's GATT server went away while the link stayed up (on the real stack when the
            // peripheral's application ends; a Service Changed can do the same): its session starts over. Or the
            // services were those of a link before, taken down late (the session checks which).
            if let owner = table.session(holding: path) { await owner.linkReportedDisconnected(.servicesRemoved) }
        case .interfacesRemoved(let path, let interfaces) where interfaces.contains(BlueZInterface.device):
            await sessions.objectRemoved(at: path)
            await sessions.publishInventory()
        default:
            break
        }
    }
}
