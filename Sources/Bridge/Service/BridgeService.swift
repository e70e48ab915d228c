import ServiceLifecycle

/// The bridge as a service of the daemon's service group: a graceful shutdown (SIGTERM, SIGINT) ends its
/// run, which disconnects the devices, says `offline` and closes the broker session before returning.
public struct BridgeService: Service {
    let bridge: Bridge
    let notifier: SystemdNotifier

    public init(_ bridge: Bridge, notifier: SystemdNotifier = SystemdNotifier()) {
        self.bridge = bridge
        self.notifier = notifier
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown { try await bridge.run(notifier: notifier) }
    }
}
