import BlueZ
import ServiceLifecycle

/// The device policy (`Bridge+Devices`): follows BlueZ (`events`, taken before BlueZ started), starts a session
/// for each device the users' choices let connect, and keeps discovering. Runs inside `BlueZService`, so BlueZ
/// is up: the gateway is ready. At shutdown it disconnects every device, all at once.
struct DevicePolicyService: Service {
    let bridge: Bridge
    let events: AsyncStream<BlueZEvent>

    func run() async {
        await cancelWhenGracefulShutdown {
            bridge.announceRunning()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await bridge.follow(events, bluez: bridge.bluez) }
                group.addTask { await bridge.keepDiscovering(bridge.bluez) }
            }
        }
        await bridge.stopAllSessions()
    }
}

extension Bridge {
    func announceRunning() {
        homeAssistant.announceGateway()
        let adapters = configuration.adapters.joined(separator: ",")
        logger.info("bridge running", metadata: ["adapters": "\(adapters)", "gateway": "\(configuration.gateway)"])
        notifier.ready(status: "running on \(adapters) as gateway \(configuration.gateway)")
    }

    func stopAllSessions() async {
        notifier.stopping(status: "disconnecting devices")
        let all = sessions.removeAll()
        background.cancelAll()
        logger.debug("stopping sessions", metadata: ["sessions": "\(all.count)"])
        // All at once: bluetoothd answers a Disconnect only when the link is down, up to 2 s later.
        await withTaskGroup(of: Void.self) { group in
            for entry in all {
                entry.commands.finish()
                entry.task.cancel()
                group.addTask { await entry.session.shutDown() }
            }
        }
    }
}
