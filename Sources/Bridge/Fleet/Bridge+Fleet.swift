import BlueZ
import Fleet
import MQTT

/// The fleet's side of the bridge: every second, each device this gateway hears goes to its arbiter;
/// the claims it makes are published, and its link actions carried out. Sessions start only on the
/// owner (`considerDevice` asks `FleetCoordinator.isOwner`).
extension Bridge {
    func runFleet(_ fleet: FleetCoordinator, bluez: any BluetoothCentral) async {
        var lastHeartbeat: ContinuousClock.Instant?
        while !Task.isCancelled {
            // Heartbeats only while other gateways may be online: alone, the gateway keeps quiet as one without a fleet.
            if fleet.presence != .inFleet {
                lastHeartbeat = nil
            } else if lastHeartbeat.map({ ContinuousClock.now - $0 >= fleet.policy.refreshInterval }) ?? true {
                let beat = JSONValue.object(["incarnation": .number(Double(fleet.incarnation))])
                publisher.publish(Publication(topic: topics.fleetHeartbeat, payload: beat.text))
                lastHeartbeat = .now
            }
            let groups = await sightings(bluez)
            let serving = sessions.paths
            for objects in groups {
                await arbitrate(representative(of: objects, serving: serving), objects: objects, fleet: fleet, bluez: bluez)
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// One device's turn; `objects` are its objects on every adapter that hears it, `device` the one
    /// that stands for them.
    private func arbitrate(_ device: BlueZDevice, objects: [BlueZDevice], fleet: FleetCoordinator, bluez: any BluetoothCentral) async {
        guard let driver = driver(for: device) else { return }
        let id = id(of: device.address)
        let key = FleetCoordinator.key(driver.family, id)
        let (session, linkUp, load) = sessions.fleetView(of: device.address)
        let wanted = choices.withLock { wants(device, driver: driver, choices: $0) }
        // Free slots on the adapters that hear the device; its own slot counts as free while it holds it.
        // A device the users' choices keep from connecting (auto-connect policy, a `disconnect`
        // request) gets none: this gateway never takes it, and lets go of it if it owns it.
        let adapters = Set(objects.compactMap { adapterName($0.adapterPath) })
        let open = adapters.map { max(0, configuration.adapterSlots - (load[$0] ?? 0)) }.reduce(0, +) + (session == nil ? 0 : 1)
        let free = wanted ? open : 0
        let rssi = objects.compactMap(\.rssi).max().map(Int.init)
        let step = fleet.step(key, rssi: rssi, freeSlots: free, linkUp: linkUp, brokerConnected: mqtt.isConnected)
        if let claim = step.claim {
            publisher.publish(Publication(topic: topics.claim(driver.family, id), payload: ClaimCodec.encode(claim), qos: 1))
        }
        // The device's retained state withheld at a reconnect: published again once a lease of listening has shown
        // the device is still this gateway's, forgotten if it is another's now.
        let prefix = topics.device(driver.family, id, "")
        if !step.listening, mqtt.hasWithheld(under: prefix) {
            let mine = fleet.isOwner(key)
            logger.info("fleet: retained state after the reconnect \(mine ? "published again" : "dropped: another gateway owns the device")",
                        metadata: ["device": "\(device.address)"])
            mqtt.releaseWithheld(under: prefix, republish: mine)
        }
        if let change = step.decision.change {
            logger.info("fleet: \(change)", metadata: ["device": "\(device.address)", "term": "\(step.decision.term)"])
            if case .tookOwnership = change {
                publisher.publish(.state(topics.device(driver.family, id, "owner"), configuration.gateway))
            }
        }
        switch step.decision.action {
        case .connect where session == nil:
            await considerDevice(device, bluez: bluez)
        case .disconnect:
            if let session { await stopSession(at: session, bluez: bluez) }
        default:
            break
        }
    }

    /// A claim or a heartbeat of a fleet gateway; false when the topic is neither.
    func receiveFleetMessage(_ message: MQTTMessage) -> Bool {
        guard let fleet else { return false }
        if let (other, family, id) = topics.parseClaim(message.topic) {
            guard other != configuration.gateway else { return true }
            // Every refused claim is counted for the health report and logged with its topic.
            func refuse(_ reason: String) {
                fleet.refuseClaim()
                warn("fleet: \(reason)", kind: "refused claim", metadata: ["topic": "\(message.topic)"])
            }
            do {
                let claim = try ClaimCodec.decode(bytes: message.payload, device: FleetCoordinator.key(family, id))
                // One writer per topic: a claim counts for the gateway whose topic it came on, and only if it says
                // so itself, so a broker ACL that lets each gateway write its own topics decides who can claim.
                if claim.gateway != other {
                    refuse("claim ignored: it names another gateway than its topic")
                } else if !fleet.receive(claim) {
                    refuse("claim ignored: claims name more devices than a fleet has")
                }
            } catch {
                refuse("malformed claim ignored: \(error)")
            }
            return true
        }
        // Another gateway's status tells whether this one is alone; its will (`offline`) ends its claims at once.
        // This gateway's own goes on to the leftovers, once it has said that the retained statuses are in.
        if let other = topics.parseGatewayStatus(message.topic) {
            let online = message.payloadString == "online"
            guard other != configuration.gateway else {
                if online { fleet.ownStatusArrived() }
                return false
            }
            fleet.status(of: other, online: online)
            if message.payloadString == "offline" {
                logger.info("fleet: \(other) left (its will): its claims end now", metadata: ["gateway": "\(other)"])
                fleet.peerLeft(other)
            } else if online {
                logger.info("fleet: \(other) is online", metadata: ["gateway": "\(other)"])
            }
            return true
        }
        if let other = topics.parseFleetHeartbeat(message.topic) {
            fleet.heard(other)
            return true
        }
        return false
    }

    /// Whether this gateway answers a command for a device it has no session with: the owner does,
    /// a gateway that knows another owner stays silent, and for a device nobody owns one gateway answers.
    func answersWithoutSession(family: DeviceFamily, id: String) -> Bool {
        guard let fleet else { return true }
        let key = FleetCoordinator.key(family, id)
        if fleet.presence == .alone || fleet.isOwner(key) { return true }
        if fleet.otherOwner(key) != nil { return false }
        return fleet.answersForUnowned()
    }
}
