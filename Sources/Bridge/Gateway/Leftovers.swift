import Locks
import MQTT

/// What an earlier run left on the broker: a retained `info` naming this gateway, for a device it has no session
/// for. After a crash its `connection` may still say `connected` and its live state (mode, battery…) is stale.
/// Both are corrected before any device is served (BlueZ starts once `read` fires): `connection` becomes
/// `disconnected` and the live state is cleared. Only where the retained `connection` says anything but
/// `disconnected`: an `info` alone, such as one a stranger forged, leaves nothing new on the broker (before, it left a
/// retained `connection`, issue #56). A device another gateway serves is left alone. Each such device
/// was served here before: on an upgrade from a version without adoption, it is adopted (`Adoptions`), if this
/// gateway's own state shows that earlier run (`EarlierRun`).
final class Leftovers: Sendable {
    let context: GatewayContext
    let sessions: SessionTable
    let adoptions: Adoptions
    /// Fired when the retained `info` of an earlier run has been read: the gateway's own retained status came
    /// back after it.
    let read = OneShotSignal()

    init(context: GatewayContext, sessions: SessionTable, adoptions: Adoptions) {
        self.context = context
        self.sessions = sessions
        self.adoptions = adoptions
    }

    /// What the retained state says until the gateway's own status ends it: the devices whose `info` names this
    /// gateway, and those whose `connection` says anything but `disconnected` (of every gateway: one on the broker
    /// each at most).
    private struct Seen: Sendable {
        var infos: Set<DeviceKey> = []
        var notDisconnected: Set<DeviceKey> = []
    }

    private struct DeviceKey: Hashable, Sendable {
        let family: DeviceFamily
        let id: String
    }

    private let seen = Mutex(Seen())

    /// Every family's retained `info` and `connection`, ended by the gateway's own retained status.
    var route: BrokerRoute {
        let topics = context.topics
        return BrokerRoute(
            subscriptions: topics.families.flatMap {
                [
                    BrokerRoute.Subscription(filter: topics.infoFilter($0), qos: .atLeastOnce),
                    BrokerRoute.Subscription(filter: topics.leafFilter($0, "connection"), qos: .atLeastOnce),
                ]
            } + [.init(filter: topics.status, qos: .atLeastOnce, afterRetainedState: true)],
            take: { [self] message in
                if message.topic == topics.status {
                    // Only the retained copy our subscription brings ends the leftovers: a persistent session may
                    // first deliver what was queued for it, such as the crashed run's own will.
                    if message.retain {
                        correctWhatWasSeen()
                        read.fire()
                    }
                    return true
                }
                guard let (family, id, leaf) = topics.parseLeaf(message.topic), leaf == "info" || leaf == "connection"
                else { return false }
                // Live changes (this gateway's own among them) are not what an earlier run left.
                guard message.retain else { return true }
                let key = DeviceKey(family: family, id: id)
                if leaf == "connection" {
                    // An empty payload is a cleared topic: nothing to correct.
                    let stale =
                        !message.payload.isEmpty && message.payload != Array(ConnectionState.disconnected.rawValue.utf8)
                    seen.withLock {
                        if stale { $0.notDisconnected.insert(key) } else { $0.notDisconnected.remove(key) }
                    }
                } else if namesThisGateway(message, family: family) {
                    seen.withLock { _ = $0.infos.insert(key) }
                }
                return true
            })
    }

    /// Whether `info` names this gateway; a device it names by a sound address was served here before (`Adoptions`).
    private func namesThisGateway(_ info: MQTTMessage, family: DeviceFamily) -> Bool {
        guard case .object(let members)? = JSONValue.parse(info.payload),
            members["gateway"] == .string(context.configuration.gateway)
        else { return false }
        if let address = members["address"]?.string, DeviceID.isAddress(address) {
            adoptions.adoptServedEarlier(address, as: family)
        }
        return true
    }

    private func correctWhatWasSeen() {
        let seen = seen.withLock { seen in
            defer { seen = Seen() }
            return seen
        }
        for key in seen.infos.sorted(by: { ($0.family.rawValue, $0.id) < ($1.family.rawValue, $1.id) }) {
            guard seen.notDisconnected.contains(key), sessions.session(family: key.family, id: key.id) == nil
            else { continue }
            correct(family: key.family, id: key.id)
        }
    }

    private func correct(family: DeviceFamily, id: String) {
        context.logger.info(
            "correcting the retained state an earlier run left", metadata: ["device": "\(family.rawValue)/\(id)"])
        let topics = context.topics
        context.publisher.publish(
            .state(topics.device(family, id, "connection"), ConnectionState.disconnected.rawValue))
        let leaves = context.driver(of: family)?.liveStateLeaves ?? []
        for leaf in leaves.sorted() { context.publisher.publish(.state(topics.device(family, id, leaf), "")) }
    }
}
