@_spi(Bench) import Bridge
import Foundation
import Locks
import Logging
import MQTT
import ServiceLifecycle

/// One gateway of the fleet-scale benchmark: the real `Bridge` with all its services (the fleet's arbiters, its
/// claims, heartbeats and will, the owner's device session) and its own real MQTT client (libmosquitto), with the
/// defaults a user runs (`fleet.enabled: auto`, R = 10 s), on a BlueZ in memory (`ScaleCentral`). Its broker
/// connection goes through a `BrokerRelay`, so that `kill()` can cut it as SIGKILL would.
final class ScaleGateway: Sendable {
    let name: String
    private let relay: BrokerRelay
    private let group: ServiceGroup
    private let running: Mutex<Task<Void, Never>?> = Mutex(nil)

    /// Gateway `name` hearing `heard`, on the broker behind `relay`, with its incarnation file in `folder`.
    init(
        name: String, heard: [(address: String, name: String, rssi: Int16)], relay: BrokerRelay,
        protocolVersion: MQTTProtocolVersion, folder: String
    ) throws {
        self.name = name
        self.relay = relay
        var mqtt = try MQTTConfiguration(url: relay.url, clientID: "gatt2mqtt-\(name)")
        mqtt.protocolVersion = protocolVersion
        var configuration = BridgeConfiguration(mqtt: mqtt, adapters: [ScaleCentral.adapter], gateway: name)
        // Every device it hears may be its (no adoption list), and it may hold all it hears: the slots are the
        // most a claim carries, so that free slots never decide who owns what.
        configuration.autoConnect = .all
        configuration.adapterSlots = 64
        // Home Assistant's discovery would add a config per entity and device, which says nothing of the fleet.
        configuration.homeAssistant.enabled = false
        var fleet = FleetOptions()
        fleet.incarnationFile = "\(folder)/\(name)"
        fleet.incarnationFileChosen = true
        configuration.fleet = fleet
        var logger = Logger(label: "gatt2mqtt.\(name)")
        logger.logLevel = .error
        var brokerLogger = Logger(label: "gatt2mqtt.\(name).mqtt")
        brokerLogger.logLevel = .critical
        let bridge = try Bridge(
            configuration: configuration, logger: logger, notifier: SystemdNotifier(environment: [:]),
            broker: { try MQTTClient(configuration: $0, logger: brokerLogger) },
            central: ScaleCentral(heard: heard))
        group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: bridge.services, gracefulShutdownSignals: [],
                logger: Logger(label: "gatt2mqtt.\(name).services") { _ in SwiftLogNoOpLogHandler() }))
    }

    /// Starts its services: it connects, says `online`, and its fleet takes its turn every second.
    func start() {
        let group = group
        running.withLock { $0 = Task { try? await group.run() } }
    }

    /// As SIGKILL: the broker connection is cut (the broker publishes the will) and its tasks end; nothing it does
    /// afterwards reaches the broker, whose relay is gone.
    func kill() {
        relay.cut()
        running.withLock { $0?.cancel() }
    }

    /// As SIGTERM: devices let go, `offline` said, the session closed.
    /// A killed gateway's tasks are only waited for so long: its client may wait on a broker it cannot reach.
    func stop() async {
        await group.triggerGracefulShutdown()
        if let task = running.withLock({ $0 }) {
            await withTaskGroup(of: Void.self) { waiting in
                waiting.addTask { await task.value }
                waiting.addTask { try? await Task.sleep(for: .seconds(5)) }
                await waiting.next()
                waiting.cancelAll()
            }
        }
        await relay.stop()
    }
}
