import ServiceLifecycle

/// Ends the gateway when its D-Bus connection is lost (dbus-daemon stopped or restarted): libdbus never
/// reconnects a connection, so nothing the gateway does afterwards can reach BlueZ. Ending at once, with an
/// error that says so, is what a supervisor can act on: systemd restarts the unit (`Restart=on-failure`), a
/// container runtime its container, and the reason is in the log at critical. Before, only systemd's
/// watchdog noticed (30 s later), and in a container nothing did.
struct SystemBusWatch: Service {
    let bluez: any BluetoothCentral

    func run() async throws {
        await cancelWhenGracefulShutdown { await bluez.busLost() }
        // A graceful shutdown ends the wait as well; only a loss outside one is an error.
        guard !Task.isShuttingDownGracefully, !Task.isCancelled else { return }
        throw SystemBusLost()
    }
}

/// The gateway's D-Bus connection went away under it.
struct SystemBusLost: Error, CustomStringConvertible {
    var description: String {
        "lost the D-Bus system bus (dbus-daemon stopped or restarted); BlueZ cannot be reached without it"
    }
}
