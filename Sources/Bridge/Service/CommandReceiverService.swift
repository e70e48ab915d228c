import ServiceLifecycle

/// The receive path (`Bridge.receiveCommands`): commands, gateway requests, claims and retained leftovers
/// from the broker. It stops before the devices are disconnected, so no command reaches a closing session.
struct CommandReceiverService: Service {
    let bridge: Bridge

    func run() async {
        await cancelWhenGracefulShutdown { await bridge.receiveCommands() }
    }
}
