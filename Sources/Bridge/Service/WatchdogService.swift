import ServiceLifecycle

/// systemd's watchdog (`WatchdogSec=`): pings while D-Bus answers, so a wedged bus connection gets the
/// daemon restarted. The broker is left out: its client reconnects by itself, and an outage is no reason
/// to restart. The health file, where one is configured, follows the same check.
struct WatchdogService: Service {
    let context: GatewayContext
    let notifier: SystemdNotifier

    func run() async {
        let bluez = context.bluez
        let configuration = context.configuration
        let healthFile = configuration.healthFile.map {
            HealthFile(path: $0, interval: configuration.healthFileInterval, logger: context.logger)
        }
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await notifier.runWatchdog { await bluez.isBusConnected } }
                if let healthFile { group.addTask { await healthFile.run { await bluez.isBusConnected } } }
            }
        }
    }
}
