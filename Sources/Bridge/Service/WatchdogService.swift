import ServiceLifecycle

/// systemd's watchdog (`WatchdogSec=`): pings while D-Bus answers, so a wedged bus connection gets the
/// daemon restarted. The broker is left out: its client reconnects by itself, and an outage is no reason
/// to restart.
struct WatchdogService: Service {
    let bridge: Bridge

    func run() async {
        let dbus = bridge.dbus
        await cancelWhenGracefulShutdown { await bridge.notifier.runWatchdog { await dbus.isConnected } }
    }
}
