import Locks
import MQTT

/// Adoption: which devices of a known family this gateway connects and announces under `auto_connect: adopted`
/// (the default). Anyone in radio range can advertise a family's name, so seeing a device is not enough: it is
/// adopted by a `connect` or `pair` request (the live page sends these), while a join window is open
/// (`permit_join`), or by being in the allow list. Those fill this gateway's places (`AdoptionList`), which are kept in
/// the state directory across restarts and upgrades and published retained on `gatt2mqtt/<gateway>/adopted`. In a
/// fleet, what the other gateways adopted counts here too, held apart and never in these places (`+Fleet`). The first
/// start without a file (a container without its volume) adopts what its own retained `adopted` lists, and on an
/// upgrade from 0.9.0 (`EarlierRun`) every device whose retained `info` names it.
final class Adoptions: Sendable {
    private struct State {
        var list = AdoptionList()
        var window = JoinWindow()
        /// Bumped by every `permit_join`: a window's closing timer closes only its own window.
        var windowGeneration = 0
        /// Whether the broker's word is taken (no file was there, or a damaged one, or none can be kept).
        var learnsFromBroker: Bool
        /// Whether this gateway's own state shows an earlier run (`EarlierRun`): only then does a retained `info`
        /// naming it say that it served the device.
        var ranBefore: Bool
        /// No adoptions file was there: one is written at the start, so that no later start takes the broker's word.
        var createsFile = false
        /// Retained infos naming this gateway that were not taken for want of an earlier run.
        var unprovenInfos = 0
        var lastPublished: String?
        /// The adoptions file was there but not whole (`AdoptionFile`).
        var startedFromDamagedFile = false
        /// This gateway's retained list on the broker, when the start found one, held something.
        var brokerHeldAList = false
        var cannotKeepSaid = false
    }

    let context: GatewayContext
    /// `<state directory>/adopted.json`; nil keeps adoptions in memory only.
    let file: String?
    private let state: Mutex<State>
    /// The lists of the fleet's other gateways (`+Fleet`).
    let peers = Mutex(PeerAdoptions())

    /// The adoptions file's largest size: 1 024 entries of about 50 bytes.
    static let fileLimit = 128 * 1024

    init(context: GatewayContext, ranBefore: Bool) {
        self.context = context
        file = context.configuration.stateDirectory.map { $0 + "/" + StateFiles.adoptions }
        var initial = State(learnsFromBroker: true, ranBefore: ranBefore)
        if let file {
            let found = AdoptionFile.read(file, logger: context.logger, families: context.topics.families)
            initial.list = found.list
            initial.learnsFromBroker = !found.whole
            initial.startedFromDamagedFile = found.damaged
            // No file at all: one is written at the start, so that no later start takes the broker's word.
            initial.createsFile = !found.whole && !found.damaged
        }
        state = Mutex(initial)
    }

    // MARK: Questions

    var follows: Bool {
        if case .adopted = context.live.autoConnect { return true }
        return false
    }

    /// Whether the device is adopted: by this gateway, or in a fleet by another (`+Fleet`).
    func contains(_ address: String) -> Bool {
        state.withLock { $0.list.contains(address) } || peers.withLock { $0.adopter(of: address) != nil }
    }

    /// The family this gateway adopted the device as; nil when it did not adopt it.
    func family(of address: String) -> DeviceFamily? {
        state.withLock { $0.list.families[address.uppercased()] }
    }

    /// Whether this gateway adopted the device itself: it holds one of its places.
    func holds(_ address: String) -> Bool { state.withLock { $0.list.contains(address) } }

    /// Whether a join window is open: a device of a known family seen now is adopted (`ConnectionPolicy`).
    var joinWindowIsOpen: Bool { state.withLock { $0.window.isOpen(at: .now) } }

    // MARK: Changes

    /// Adopts a device, keeps and publishes the list; false when the list is full (and it was not adopted).
    @discardableResult
    func adopt(_ address: String, as family: DeviceFamily, by reason: String) -> Bool {
        adopt([(address, family)], by: reason)
    }

    /// A device seen while the join window is open; false when the list is full, or the window has adopted its most
    /// (`JoinWindow.adoptionLimit`), which closes it.
    func adoptJoining(_ address: String, as family: DeviceFamily) -> Bool {
        let (admitted, closed) = state.withLock { state -> (Bool, Bool) in
            guard state.window.isOpen(at: .now) else { return (false, false) }
            let admitted = state.window.admitAdoption()
            // Closed now: its timer has nothing left to close.
            if !admitted { state.windowGeneration += 1 }
            return (admitted, !admitted)
        }
        if closed {
            context.logger.warning(
                "join window closed: it adopted the most one window adopts; open another for more",
                metadata: ["limit": "\(JoinWindow.adoptionLimit)"])
            publishWindow(open: false, remaining: 0)
        }
        return admitted && adopt(address, as: family, by: "join window")
    }

    /// Adopts devices, then keeps and publishes the list once (a list of 1 024 from the broker is one write, not
    /// 1 024); false when the list was full for one of them.
    @discardableResult
    private func adopt(_ devices: [(address: String, family: DeviceFamily)], by reason: String) -> Bool {
        let (added, refused) = state.withLock { state -> ([(address: String, family: DeviceFamily)], [String]) in
            var added: [(address: String, family: DeviceFamily)] = []
            var refused: [String] = []
            for device in devices {
                let known = state.list.contains(device.address)
                if state.list.adopt(device.address, as: device.family) {
                    added.append(device)
                } else if !known {
                    refused.append(device.address)
                }
            }
            return (added, refused)
        }
        for address in refused {
            context.warn(
                "the adopted devices are full; forget one first", kind: "adoptions full",
                metadata: [
                    "device": "\(address)", "limit": "\(AdoptionList.limit)",
                ])
        }
        for device in added {
            context.logger.notice(
                "device adopted",
                metadata: ["device": "\(device.address)", "family": "\(device.family.rawValue)", "by": "\(reason)"])
        }
        if !added.isEmpty { keepAndPublish() }
        return refused.isEmpty
    }

    /// A `forget` request: the device is no longer adopted here, and in a fleet the other gateways are told
    /// (`gatt2mqtt/<gateway>/forgotten`), so that those that adopted it forget it too.
    func forget(_ address: String) {
        remove([address], by: "forget request")
        if context.configuration.fleet != nil {
            let payload = JSONValue.object(["address": .string(address.uppercased())]).text
            context.publisher.publish(
                Publication(topic: context.topics.gatewayTopic("forgotten"), payload: payload, qos: 1))
        }
    }

    /// Takes devices out of the list (a `forget` request, here or on another gateway of the fleet), then keeps and
    /// publishes it once.
    func remove(_ addresses: [String], by reason: String) {
        let removed = state.withLock { state in addresses.filter { state.list.remove($0) } }
        for address in removed {
            context.logger.notice("device no longer adopted", metadata: ["device": "\(address)", "by": "\(reason)"])
        }
        if !removed.isEmpty { keepAndPublish() }
    }

    /// A device an earlier run served (its retained `info` names this gateway): adopted on the first start without
    /// a file, so that an upgrade from a version without adoption keeps every device connecting. Only when this
    /// gateway's own state shows an earlier run: an `info` is a device topic, which any gateway of a fleet (and,
    /// without the broker ACL, any client) may write, and a forged one must not adopt on a fresh install.
    func adoptServedEarlier(_ address: String, as family: DeviceFamily) {
        let proven = state.withLock { state -> Bool in
            guard state.learnsFromBroker else { return false }
            if !state.ranBefore { state.unprovenInfos += 1 }
            return state.ranBefore
        }
        if proven { adopt(address, as: family, by: "served before") }
    }

    /// Opens a join window for `seconds` (0 closes it) and says so on `gatt2mqtt/<gateway>/permit_join`; it closes
    /// itself at its end. Returns the seconds it stays open.
    func permitJoin(for seconds: Int, then consider: @escaping @Sendable () async -> Void) -> Int {
        let (generation, remaining) = state.withLock { state -> (Int, Int) in
            state.window.open(for: seconds, at: .now)
            state.windowGeneration += 1
            return (state.windowGeneration, state.window.remainingSeconds(at: .now))
        }
        context.logger.notice(
            remaining > 0 ? "join window opened" : "join window closed", metadata: ["seconds": "\(remaining)"])
        publishWindow(open: remaining > 0, remaining: remaining)
        guard remaining > 0 else { return 0 }
        context.background.spawn { [self] in
            // Devices already in range join at once, not only those that appear later, however late this runs.
            await consider()
            state.withLock { state in
                if state.windowGeneration == generation { state.window.inRangeConsidered() }
            }
            try? await Task.sleep(for: .seconds(remaining))
            let closed = state.withLock { state -> Bool in
                guard state.windowGeneration == generation else { return false }
                state.window.close()
                return true
            }
            guard closed else { return }
            context.logger.notice("join window closed", metadata: ["seconds": "0"])
            publishWindow(open: false, remaining: 0)
        }
        return remaining
    }

    // MARK: Broker

    /// Says the list and the closed window once the leftovers are read (BlueZ starts then): the retained list of an
    /// earlier run has been taken by then, not overwritten.
    func announce() {
        let (creates, unproven, withheld) = state.withLock { state in
            defer {
                state.learnsFromBroker = false
                state.createsFile = false
            }
            // A damaged file that left nothing, and a retained list of which nothing could be adopted either: the
            // broker's copy is all that is left of the adoptions, and `[]` is not published over it.
            let withheld = state.startedFromDamagedFile && state.list.isEmpty && state.brokerHeldAList
            return (state.createsFile, state.unprovenInfos, withheld)
        }
        if creates { keep() }
        if withheld {
            context.logger.warning(
                "no adopted device after a damaged adoptions file; the broker's retained list is left as it is",
                metadata: ["topic": "\(context.topics.adopted)"])
        } else {
            publishList()
        }
        publishWindow(open: false, remaining: 0)
        if unproven > 0 {
            context.logger.warning(
                "retained infos name this gateway, but its state shows no earlier run (no fleet incarnation file): their devices are not adopted; adopt them with connect or permit_join",
                metadata: ["infos": "\(unproven)"])
        }
    }

    /// This gateway's retained list of an earlier run; in a fleet, the lists and forgets of the gateways followed
    /// (`+Fleet`), which subscribes to each of them as it becomes a member.
    var route: BrokerRoute {
        let own = context.topics.adopted
        return BrokerRoute(
            subscriptions: [.init(filter: own, qos: .atLeastOnce)],
            take: { [self] message in
                if message.topic == own {
                    if message.retain { takeOwnEarlierList(message.payload) }
                    return true
                }
                return takeFromMember(message)
            })
    }

    private func takeOwnEarlierList(_ payload: [UInt8]) {
        let parsed = AdoptionList.parseReporting(payload, families: context.topics.families)
        // Anything but nothing or `[]`, even entries this release cannot read (a family of a later one).
        if !payload.isEmpty, parsed.map({ !$0.list.isEmpty || $0.leftOut.count > 0 }) ?? true {
            state.withLock { $0.brokerHeldAList = true }
        }
        guard state.withLock({ $0.learnsFromBroker }), let list = parsed?.list else { return }
        adopt(list.families.map { (address: $0.key, family: $0.value) }, by: "the broker's retained list")
    }

    private func keepAndPublish() {
        keep()
        publishList()
    }

    private func keep() {
        guard let file else { return }
        let bytes = Array(state.withLock { $0.list.json.text }.utf8)
        do throws(DurableFile.Failure) {
            try DurableFile.createFolder(of: file)
            try DurableFile.replace(file, with: bytes)
        } catch {
            let first = state.withLock { state -> Bool in
                defer { state.cannotKeepSaid = true }
                return !state.cannotKeepSaid
            }
            if first {
                context.logger.warning(
                    "cannot keep the adopted devices; they last until the gateway stops, and the broker's retained list restores them",
                    metadata: ["reason": "\(error.description)"])
            }
        }
    }

    private func publishList() {
        let text = state.withLock { state -> String? in
            let text = state.list.json.text
            guard text != state.lastPublished else { return nil }
            state.lastPublished = text
            return text
        }
        if let text { context.publisher.publish(.state(context.topics.adopted, text)) }
    }

    private func publishWindow(open: Bool, remaining: Int) {
        let payload = JSONValue.object(["open": .bool(open), "remaining_s": .number(Double(remaining))]).text
        context.publisher.publish(.state(context.topics.permitJoin, payload))
    }
}
