import BlueZ
import Fleet
import ServiceLifecycle

/// This gateway's part in a fleet: every second, each device this gateway hears goes to its arbiter
/// (`FleetCoordinator`), which hears the other gateways' claims on it (`ClaimSubscriptions`); the claims it makes
/// are published, and its link actions carried out through the sessions feature, which starts a session only on
/// the owner. Its broker side (claims, heartbeats, the other
/// gateways' statuses) is in `+Messages`. Runs inside `BlueZService`, so BlueZ is up.
struct FleetService: Service {
    let context: GatewayContext
    let coordinator: FleetCoordinator
    /// The claims this gateway listens to: those of the devices it hears, or every claim while it answers for devices
    /// nobody owns.
    let claims: ClaimSubscriptions
    let sessions: DeviceSessions
    /// Told when the gateway's part in the fleet changes (alone, member): its `info` says it.
    let info: GatewayInfo
    /// A will starts the next turn at once.
    let nextTurn = TurnWake()
    /// Other gateways' comings and goings, logged at most 20 times a minute of each: anyone on a broker without the
    /// ACL recipe can publish statuses under as many names as they like (2 000 names made 2 000 lines).
    let peerLines = WarningLimiter(burst: 20, period: .seconds(60))

    func run() async {
        await cancelWhenGracefulShutdown { await takeTurns() }
    }

    /// How long the gateway waits, connected, for its own retained status to come back through the subscription to
    /// every gateway's before it takes it that the broker will not deliver them (`statusesUnavailable`). The statuses
    /// come in one burst right after the subscription, so this is only ever reached on such a broker.
    static let statusWait = Duration.seconds(5)

    private func takeTurns() async {
        var lastHeartbeat: ContinuousClock.Instant?
        var lastPresence: FleetCoordinator.Presence?
        var unknownSince: ContinuousClock.Instant?
        while !Task.isCancelled {
            let turnStarted = ContinuousClock.now
            var presence = coordinator.presence
            if presence != lastPresence {
                context.logger.info("fleet: \(Self.describe(presence))")
                lastPresence = presence
                info.refresh()
            }
            if presence == .unknown, context.mqtt.isConnected {
                let since = unknownSince ?? .now
                unknownSince = since
                if ContinuousClock.now - since >= Self.statusWait {
                    giveUpWaitingForStatuses()
                    presence = coordinator.presence
                }
            } else {
                unknownSince = nil
            }
            // Heartbeats only while other gateways may be online: alone, the gateway keeps quiet as one without a fleet.
            if presence != .inFleet {
                lastHeartbeat = nil
            } else if lastHeartbeat.map({ ContinuousClock.now - $0 >= coordinator.policy.refreshInterval }) ?? true {
                let beat = JSONValue.object(["incarnation": .number(Double(coordinator.incarnation))])
                context.publisher.publish(Publication(topic: context.topics.fleetHeartbeat, payload: beat.text))
                lastHeartbeat = .now
            }
            let sightings = await sighted()
            claims.turn(
                heard: sightings.map(\.key),
                wholeFleet: presence == .inFleet && coordinator.answersForUnowned())
            for sighting in sightings where claims.listens(to: sighting.key) {
                await arbitrate(sighting)
            }
            // A turn a second, counted from its start; a will starts the next at once (its devices wait for an owner).
            await nextTurn.wait(until: turnStarted + .seconds(1))
        }
    }

    private static func describe(_ presence: FleetCoordinator.Presence) -> String {
        switch presence {
        case .alone: "alone (no other gateway online): devices are taken at once"
        case .inFleet: "in a fleet (another gateway online): devices go by the fleet's claims"
        case .unknown: "waiting for the gateways' retained statuses before taking any device"
        }
    }

    private func giveUpWaitingForStatuses() {
        let filter = context.topics.everyGateway("status")
        context.logger.warning(
            "fleet: this gateway's own retained status did not come back on \(filter) within \(Self.statusWait) (the broker's ACL may deny reading it, or the broker keeps no retained messages); acting alone, unable to see other gateways"
        )
        coordinator.statusesUnavailable()
    }

    /// A device this gateway hears, of a family it serves: `objects` are its objects on every adapter that hears it,
    /// `device` the one that stands for them.
    private struct Sighting {
        let device: BlueZDevice
        let objects: [BlueZDevice]
        let driver: any FamilyDriver
        let id: String
        var key: String { FleetCoordinator.key(driver.family, id) }
    }

    private func sighted() async -> [Sighting] {
        let serving = sessions.table.paths
        return await context.sightings().compactMap { objects in
            let device = sessions.representative(of: objects, serving: serving)
            guard let driver = sessions.driver(for: device) else { return nil }
            return Sighting(device: device, objects: objects, driver: driver, id: context.id(of: device.address))
        }
    }

    /// One device's turn.
    private func arbitrate(_ sighting: Sighting) async {
        let (device, objects, driver, id, key) = (
            sighting.device, sighting.objects, sighting.driver, sighting.id, sighting.key
        )
        let configuration = context.configuration
        let topics = context.topics
        let (session, linkUp, load) = sessions.table.fleetView(of: device.address)
        let wanted = sessions.wants(device, driver: driver)
        // Free slots on the adapters that hear the device; its own slot counts as free while it holds it.
        // A device the users' choices keep from connecting (auto-connect policy, a `disconnect`
        // request) gets none: this gateway never takes it, and lets go of it if it owns it.
        let adapters = Set(objects.compactMap { context.adapterName($0.adapterPath) })
        let open =
            adapters.map { max(0, configuration.adapterSlots - (load[$0] ?? 0)) }.reduce(0, +)
            + (session == nil ? 0 : 1)
        let free = wanted ? open : 0
        let rssi = objects.compactMap(\.rssi).max().map(Int.init)
        let step = coordinator.step(
            key, rssi: rssi, freeSlots: free, linkUp: linkUp, brokerConnected: context.mqtt.isConnected)
        if let claim = step.claim {
            context.publisher.publish(
                Publication(topic: topics.claim(driver.family, id), payload: ClaimCodec.encode(claim), qos: 1))
        }
        // The device's retained state withheld at a reconnect: published again once a lease of listening has shown
        // the device is still this gateway's, forgotten if it is another's now.
        let prefix = topics.device(driver.family, id, "")
        if !step.listening, context.mqtt.hasWithheld(under: prefix) {
            let mine = coordinator.isOwner(key)
            context.logger.info(
                "fleet: retained state after the reconnect \(mine ? "published again" : "dropped: another gateway owns the device")",
                metadata: ["device": "\(device.address)"])
            context.mqtt.releaseWithheld(under: prefix, republish: mine)
        }
        if let change = step.decision.change {
            context.logger.info(
                "fleet: \(change)", metadata: ["device": "\(device.address)", "term": "\(step.decision.term)"])
            if case .tookOwnership = change {
                context.publisher.publish(.state(topics.device(driver.family, id, "owner"), configuration.gateway))
                sessions.adoptions.tookOver(device.address, as: driver.family) { !coordinator.isOnline($0) }
            }
        }
        switch step.decision.action {
        case .connect where session == nil:
            await sessions.fleetGranted(device)
        case .disconnect:
            if let session { await sessions.fleetWithdrew(at: session) }
        default:
            break
        }
    }
}
