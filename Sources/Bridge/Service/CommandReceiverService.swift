import ServiceLifecycle

/// The receive path (`ReceivePath`): commands, gateway requests, claims and retained leftovers from the broker.
/// It stops before the devices are disconnected, so no command reaches a closing session.
struct CommandReceiverService: Service {
    let path: ReceivePath

    func run() async {
        await cancelWhenGracefulShutdown { await path.run() }
    }
}
