import BlueZ
import Logging

/// What every device session has: its device link, where it publishes, its logger with the device in
/// the metadata, the gateway's callbacks and counters, and its link-loss event. A class: a notification
/// lane reaches it for every value, and a copy of its dozen references would cost as many retains.
final class SessionCore: Sendable {
    let id: String
    let family: DeviceFamily
    let link: any GATTLink
    /// Private: everything a session publishes goes through `publish(_:)`, the one path, which keeps the live-state
    /// ledger and the device's description.
    private let publisher: BrokerPublisher
    let gateway: String
    let logger: Logger
    let loss = LinkLoss()
    /// Every task of the connection (streams, periodic reads, work beside the caller): ended with the link.
    let connection = ConnectionScope()
    private let liveState = LiveStateLedger()
    /// The family's retained leaves that are cleared when the link ends.
    let liveStateLeaves: Set<String>
    /// Whether `rssi` comes with the link's vitals (`LinkVitals.swift`); false where the family reports it itself.
    let reportsSignal: Bool
    /// The connection state, held once (`ConnectionRecord`): set by `announce`, read by the gateway.
    let connectionRecord: ConnectionRecord
    private let stateChanged: @Sendable (ConnectionState) -> Void
    private let described: @Sendable ([String: JSONValue]) -> Void
    /// This device's counters in the health report, found once rather than by key for every value.
    private let counters: DeviceMetrics.Counter
    private let malformedWarnings = WarningLimiter()
    /// Whether the fast streams are published (`devices.streaming`); the gateway switches it at run time.
    let streams: StreamSwitch
    /// The device's own intervals (`devices.intervals`); the gateway sets them at run time.
    let intervals: DeviceIntervals
    /// How many times its own time the connection's set-up and a device's answer may take (`SessionContext`).
    let slowLinkFactor: Double

    init(device: BlueZDevice, context: SessionContext, family: DeviceFamily, reportsSignal: Bool = true) {
        id = context.id
        self.family = family
        self.reportsSignal = reportsSignal
        link = context.link(device)
        liveStateLeaves = context.liveStateLeaves
        publisher = context.publisher
        gateway = context.gateway
        connectionRecord = context.connection
        stateChanged = context.stateChanged
        described = context.described
        streams = context.streams
        intervals = context.intervals
        slowLinkFactor = context.slowLinkFactor
        counters = context.metrics.counter(for: DeviceMetrics.key(family, context.id))
        var logger = context.logger
        logger[metadataKey: "device"] = "\(device.address)"
        logger[metadataKey: "family"] = "\(family.rawValue)"
        self.logger = logger
    }

    /// The gateway's topics.
    var topics: TopicMap { publisher.topics }

    /// `<family>/<id>/<leaf>`.
    func topic(_ leaf: String) -> String { publisher.topics.device(family, id, leaf) }

    /// What every device's retained `info` holds (topics.md): its address, family, the gateway that serves it, and
    /// its name when it has one. A family adds what its handshake learnt.
    var infoMembers: [String: JSONValue] {
        var members: [String: JSONValue] = [
            "address": .string(link.device.address), "family": .string(family.rawValue), "gateway": .string(gateway),
        ]
        if let name = link.device.name ?? link.device.alias { members["name"] = .string(name) }
        return members
    }

    func publish(_ publications: [Publication]) {
        for publication in publications where !streams.drops(publication) {
            if publication.retain, let leaf = publication.topic.split(separator: "/").last {
                if liveStateLeaves.contains(String(leaf)) { liveState.record(publication.topic) }
                if leaf == "info", case .object(let members)? = JSONValue.parse(Array(publication.payload.utf8)) {
                    described(members)
                }
            }
            publisher.publish(publication)
        }
    }

    /// Clears the live state the device told while connected (empty retained payloads): it would lie
    /// while the device is away.
    func clearLiveState() {
        for topic in liveState.takeAll() { publisher.publish(.state(topic, "")) }
    }

    /// Announces a new connection state: the retained `connection` topic, then the record (which releases the commands
    /// waiting for `connected`, so their answers come after it), the gateway, the counters.
    func announce(_ state: ConnectionState) {
        publisher.publish(.state(topic("connection"), state.rawValue))
        connectionRecord.set(state)
        stateChanged(state)
        if state == .connected { counters.connects.add(1, ordering: .relaxed) }
    }

    /// BlueZ's copy of the device's services lacked `missing` on two set-ups in a row (`StaleServicesWatch`): the device
    /// is removed from BlueZ, which then discovers its services afresh when it sees the device again; its session ends
    /// with the device's object, and a new one starts then. Not a bonded device: removing it would end the bond, which
    /// only its user can make again, so the log says what to do.
    func forgetStaleServices(missing: String) async {
        let lacked = "BlueZ's copy of the device's services lacked \(missing) twice in a row"
        if await link.current()?.paired == true {
            let advice =
                "forget it (the forget request, or bluetoothctl remove \(link.device.address)) and pair it again"
            logger.warning(
                "\(lacked); it may be stale, and the device is bonded: to have them discovered afresh, \(advice)")
            return
        }
        do {
            try await link.forgetServices()
            logger.notice(
                "\(lacked): removed the device from BlueZ, to discover its services afresh when it is seen again")
        } catch {
            logger.warning("\(lacked), and removing the device from BlueZ failed: \(error)")
        }
    }

    /// Publishes a failure on `<family>/<id>/error` (an event: QoS 1, not retained) and logs it.
    func report(_ failure: DeviceFailure) { publisher.report(failure, family: family, id: id, logger: logger) }

    func countNotification() { counters.notifications.add(1, ordering: .relaxed) }
    func countDecodeError() { counters.decodeErrors.add(1, ordering: .relaxed) }

    /// Counts a notification and decodes it. A malformed one is counted and logged with its bytes, and
    /// gives nil: nothing is published for it.
    func decode<Value>(_ bytes: [UInt8], from characteristic: String, _ decoder: ([UInt8]) throws -> Value) -> Value? {
        countNotification()
        do {
            return try decoder(bytes)
        } catch {
            countMalformed(bytes, from: characteristic, error)
            return nil
        }
    }

    /// Counts a notification that did not decode, and logs it: at most five lines a minute per device, since
    /// a faulty device may send nothing else, hundreds of times a second.
    func countMalformed(_ bytes: [UInt8], from characteristic: String, _ error: any Error) {
        countDecodeError()
        malformedWarnings.warn(
            "malformed notification", kind: "malformed",
            metadata: ["characteristic": "\(characteristic)", "bytes": "\(bytes.hex)", "error": "\(error)"],
            to: logger)
    }
}

/// A session built on a `SessionCore`: the lifecycle (connect and set up, stay, tear down, back off and
/// again), link loss, shutdown and state changes are the same for every family.
protocol LinkedSession: DeviceSession {
    nonisolated var core: SessionCore { get }
    var state: ConnectionState { get }
    /// Whether a lost device is reconnected by itself.
    var reconnects: Bool { get }
    /// Connects and brings the device to `connected`.
    func connectAndSetUp() async throws
    /// Forgets the family's state of the connection after a loss or a failed attempt, once its tasks have ended and
    /// the link is reset (`endConnection`); ends in `disconnected`.
    func tearDown() async
}

extension LinkedSession {
    nonisolated var id: String { core.id }
    nonisolated var family: DeviceFamily { core.family }
    var reconnects: Bool { true }

    func run() async {
        var staleServices = StaleServicesWatch()
        await SessionLifecycle.run(
            logger: core.logger, loss: core.loss, reconnect: reconnects,
            connect: {
                try await connectAndSetUp()
                staleServices.setUpSucceeded()
            },
            // Up as gatt2mqtt counts it (`hasLink`: bluetoothd 5.66 under load may never say `Connected: true`), with
            // the services this link resolved: a late teardown of the link before removes its services, which this
            // link's set-up then found again; a GATT server that went away leaves none.
            linkIsUp: {
                guard await core.link.current()?.hasLink == true else { return false }
                return await !core.link.serviceUUIDs().isEmpty
            },
            abandon: { await core.link.disconnect() },
            setUpFailed: {
                if let missing = staleServices.setUpFailed(missing: await core.link.missedCharacteristic()) {
                    await core.forgetStaleServices(missing: missing)
                }
            },
            tearDown: { await endConnection() }, failed: { core.report($0) })
    }

    func linkDidDrop() {
        core.logger.debug("the link ended with BlueZ (org.bluez left the bus)")
        core.loss.signal()
    }

    func linkReportedDisconnected(_ report: LinkEndReport) {
        core.logger.debug("BlueZ reports the link's end", metadata: ["report": "\(report.rawValue)"])
        core.loss.disconnectReported()
    }

    func shutDown() async {
        core.loss.expectEnding()
        if state != .disconnected { await core.link.disconnect() }
        core.loss.signal(.ended)
        await endConnection()
    }

    /// The end of every connection, in this order for every family: every task of the connection ends (and has
    /// returned), the link forgets its characteristics (the next connection may have other handles), and only then
    /// does the family forget the connection's state (`tearDown`): no stream or timer of an ended link publishes
    /// after it.
    private func endConnection() async {
        if await !core.connection.close() {
            core.logger.warning("a task of the ended connection is still running after \(ConnectionScope.closeBound)")
        }
        await core.link.reset()
        await tearDown()
    }

    func setState(_ newState: ConnectionState) {
        guard newState != state else { return }
        if newState == .disconnected {
            core.clearLiveState()
            if state == .connected { core.linkEnded() }
        }
        core.announce(newState)
        if newState == .connected { core.startVitals() }
    }
}
