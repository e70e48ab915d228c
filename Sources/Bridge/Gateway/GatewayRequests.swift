import BlueZ
import Locks
import MQTT

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The gateway's request API (Zigbee2MQTT style): `gatt2mqtt/<gateway>/request/<name>` answered on
/// `gatt2mqtt/<gateway>/response/<name>`, or on the request's MQTT 5 response topic. It owns its rate limits;
/// what a request changes goes through the sessions feature.
final class GatewayRequests: Sendable {
    /// Requests admitted per second, and running at once.
    static let perSecond = 5.0
    private let limiter = Mutex(CommandRateLimiter(perSecond: GatewayRequests.perSecond, burst: 10))
    private let inFlight = InFlightLimit(4)
    let context: GatewayContext
    let sessions: DeviceSessions
    /// Fired once `request/restart` is answered.
    let restart: RestartSignal
    /// Checks and keeps `request/options`; nil where there is no configuration to keep them in.
    let options: (any GatewayOptionsHandler)?
    /// Said again after options change.
    let info: GatewayInfo
    /// When the gateway started: `restart` is refused for `restartHoldOff` after it.
    let started: ContinuousClock.Instant

    init(
        context: GatewayContext, sessions: DeviceSessions, restart: RestartSignal,
        options: (any GatewayOptionsHandler)?, info: GatewayInfo, started: ContinuousClock.Instant
    ) {
        self.context = context
        self.started = started
        self.sessions = sessions
        self.restart = restart
        self.options = options
        self.info = info
    }

    /// The gateway's requests (scan, connect, …).
    var route: BrokerRoute {
        BrokerRoute(
            subscriptions: [.init(filter: context.topics.requestFilter, qos: .atLeastOnce)],
            take: { [self] message in
                guard let name = context.topics.parseRequest(message.topic) else { return takeMemberRename(message) }
                handle(message, name: name)
                return true
            })
    }

    func handle(_ message: MQTTMessage, name: String) {
        if message.retain {
            refuseRetained(message, name: name)
            return
        }
        var transaction: JSONValue?
        do throws(CommandError) {
            // A restore carries a whole backup, larger than any command (it is privileged: an administrator's).
            let limit = context.configuration.payloadSizeLimit
            let payload = try CommandPayload(
                bytes: message.payload, sizeLimit: name == "restore" ? max(limit, StateBackup.sizeLimit) : limit)
            transaction = payload.transaction
            let request = try GatewayRequest.parse(name: name, payload: payload, families: context.topics.families)
            try refuseUnlessPermitted(request, name: name)
            // Requests scan, pair, connect and forget (BlueZ calls that take seconds): a few a second, a few at a time,
            // whoever sends them. (`devices` and `scan` read the BlueZ object cache, not D-Bus, but are limited alike.)
            guard limiter.withLock({ $0.admit("requests", at: .now) }) else {
                throw CommandError(.rateLimited, "more than \(Self.perSecond) requests per second")
            }
            guard inFlight.take() else {
                throw CommandError(
                    .rateLimited, "\(inFlight.limit) requests are in progress already: wait for an answer")
            }
            // Pairing and connecting take seconds: never on the receive path.
            context.background.spawn { [self, transaction] in
                defer { inFlight.give() }
                let result: Result<JSONValue?, CommandError>
                do throws(CommandError) {
                    result = .success(try await perform(request))
                } catch {
                    result = .failure(error)
                }
                respond(to: message, name: name, result: result, transaction: transaction)
                // Only once the answer is on its way: the shutdown closes the broker session after it.
                if request.restartsOnceAnswered, case .success = result { restart.request() }
            }
        } catch {
            respond(to: message, name: name, result: .failure(error), transaction: transaction)
        }
    }

    /// A retained request is not a request: the broker's store delivers it at every start and reconnect (a retained
    /// `restart` would restart the gateway for ever, a retained `permit_join` open the join window at every start).
    /// It is answered `retained` and never performed, and cleared (the topic is the gateway's own), so that it comes
    /// once.
    private func refuseRetained(_ message: MQTTMessage, name: String) {
        // An empty retained message deletes one; no broker delivers it as retained, and it asks for nothing.
        guard !message.payload.isEmpty else { return }
        let transaction =
            (try? CommandPayload(bytes: message.payload, sizeLimit: context.configuration.payloadSizeLimit))?
            .transaction
        // Cleared before the answer: whoever reads the answer finds the broker's store already without it.
        context.publisher.clearRetained(message.topic)
        respond(
            to: message, name: name, result: .failure(.retainedRefusal(of: "request")), transaction: transaction)
    }

    private func respond(
        to request: MQTTMessage, name: String, result: Result<JSONValue?, CommandError>, transaction: JSONValue?
    ) {
        var members: [String: JSONValue] = ["request": .string(name)]
        switch result {
        case .success(let data):
            members["ok"] = .bool(true)
            if let data { members["data"] = data }
        case .failure(let error):
            members["ok"] = .bool(false)
            members["error"] = .object(["code": .string(error.code.rawValue), "message": .string(error.message)])
            context.warn(
                "request refused", kind: "request refused (\(error.code.rawValue))",
                metadata: ["request": "\(name)", "code": "\(error.code.rawValue)", "reason": "\(error.message)"])
        }
        if let transaction { members["transaction"] = transaction }
        let topic = context.publisher.answerTopic(for: request, otherwise: context.topics.response(name))
        do {
            try context.mqtt.publish(
                MQTTMessage(
                    topic: topic, string: JSONValue.object(members).text, qos: .atLeastOnce,
                    correlationData: request.correlationData))
        } catch {
            context.logger.error("cannot answer \(name): \(error)")
        }
    }

    private func perform(_ request: GatewayRequest) async throws(CommandError) -> JSONValue? {
        let bluez = context.bluez
        switch request {
        case .scan(let seconds):
            let generation = sessions.inventoryBoard.scanWindow.open(for: seconds)
            for device in await sessions.allDevices() { sessions.reportSighting(device) }
            context.background.spawn { await self.finishScan(generation, after: seconds) }
            return .object(["duration_s": .number(Double(seconds))])
        case .devices:
            return await sessions.inventory().json
        case .restart:
            try refuseEarlyRestart()
            context.logger.notice("restart requested over MQTT")
            return .object(["restarting": .bool(true)])
        case .options(let members):
            return try await changeOptions(members)
        case .rename(let address, let alias):
            return try await rename(address, to: alias)
        case .backup:
            return try backup()
        case .restore(let backup):
            return try restore(backup)
        case .permitJoin(let seconds):
            guard sessions.adoptions.follows else {
                throw CommandError(
                    .invalidValue,
                    "devices join only under auto_connect: adopted, not \(context.live.autoConnect.name)")
            }
            let open = sessions.adoptions.permitJoin(for: seconds) { [sessions] in
                await sessions.considerAllDevices()
                await sessions.publishInventory()
            }
            return .object(["open": .bool(open > 0), "remaining_s": .number(Double(open))])
        case .connect(let address, let family):
            if let family, !context.topics.families.contains(family) {
                throw CommandError(
                    .invalidValue,
                    "'family' must be one of \(context.topics.families.map(\.rawValue).joined(separator: ", "))")
            }
            let device = try await knownDevice(address)
            let served = try await sessions.connect(device, as: family)
            return .object([
                "address": .string(address), "id": .string(context.id(of: address)), "family": .string(served.rawValue),
            ])
        case .disconnect(let address):
            let device = try await knownDevice(address)
            await sessions.release(device)
            let objects = await context.objects(of: address)
            for object in objects where object.hasLink {
                try? await bluez.disconnect(devicePath: object.path)
            }
            // The reply says the link is down, so a `connect` right after it starts from a clean state.
            for object in objects {
                _ = await bluez.waitUntilDisconnected(devicePath: object.path, timeout: .seconds(5))
            }
            await sessions.publishInventory()
            return nil
        case .pair(let address):
            let device = try await knownDevice(address)
            do {
                try await bluez.pair(devicePath: device.path)
                try await bluez.setTrusted(devicePath: device.path)
            } catch {
                // The device's users hear of it too, not only the requester.
                if let family = sessions.driver(for: device)?.family {
                    context.publisher.report(
                        DeviceFailure(.pairingFailed, "\(error)"), family: family, id: context.id(of: address),
                        logger: context.logger)
                }
                throw CommandError(.gattError, "pairing with \(address) failed: \(error)")
            }
            sessions.adoptPaired(device)
            await sessions.publishInventory()
            return .object(["address": .string(address), "paired": .bool(true)])
        case .forget(let address):
            let device = try await knownDevice(address)
            try await sessions.forget(device) { () async throws(CommandError) in
                // Every adapter keeps its own object (and bond) of the device.
                for object in await context.objects(of: address) {
                    do {
                        try await bluez.removeDevice(devicePath: object.path, adapterPath: object.adapterPath)
                    } catch {
                        throw CommandError(.gattError, "cannot remove \(address): \(error)")
                    }
                }
            }
            await sessions.publishInventory()
            return nil
        }
    }

    /// A privileged request on a gateway that takes none from the broker is refused (`not_permitted`), at once and
    /// before the rate limit: it changes nothing, and the answer says which setting decides.
    private func refuseUnlessPermitted(_ request: GatewayRequest, name: String) throws(CommandError) {
        let configuration = context.configuration
        guard request.isPrivileged, !configuration.takesPrivilegedRequests else { return }
        let why =
            configuration.privilegedRequests == .auto
            ? "requests.privileged is auto, and this gateway reaches the broker without credentials"
            : "requests.privileged is false"
        throw CommandError(
            .notPermitted,
            "\(name) is a privileged request, which this gateway does not take from the broker (\(why)): "
                + "change it on the gateway's host, or set requests.privileged there")
    }

    /// A restart within `restartHoldOff` of the start is refused (`too_soon`), saying when one is taken: whatever
    /// restarts the gateway as soon as it is back (a script, a retained request on a broker that still delivers it)
    /// gets it online for that long at least, rather than restarting it every few seconds.
    private func refuseEarlyRestart(at now: ContinuousClock.Instant = .now) throws(CommandError) {
        let holdOff = context.configuration.restartHoldOff
        let up = now - started
        guard up < holdOff else { return }
        let wait = holdOff - up
        // Whole seconds, rounded up: a request sent at the time said is taken.
        let seconds = wait.components.seconds + (wait.components.attoseconds > 0 ? 1 : 0)
        let from = Date.now.addingTimeInterval(Double(seconds)).formatted(.iso8601)
        throw CommandError(
            .tooSoon,
            "the gateway started \(up.components.seconds) s ago; a restart is taken \(holdOff.components.seconds) s "
                + "after a start (limits.restart_holdoff_s): from \(from), in \(seconds) s")
    }

    private func knownDevice(_ address: String) async throws(CommandError) -> BlueZDevice {
        guard let device = await sessions.allDevices().first(where: { $0.address.uppercased() == address }) else {
            let adapters = context.configuration.adapters.joined(separator: ", ")
            throw CommandError(.unknownDevice, "\(address) has not been seen on \(adapters); scan first")
        }
        return device
    }

    /// Ends a scan with `{"finished":true,…}` on `gatt2mqtt/<gateway>/scan`, unless a later request extended it.
    private func finishScan(_ generation: Int, after seconds: Int) async {
        try? await Task.sleep(for: .seconds(seconds))
        guard let seen = sessions.inventoryBoard.scanWindow.close(generation) else { return }
        let summary = JSONValue.object([
            "finished": .bool(true), "duration_s": .number(Double(seconds)), "seen": .number(Double(seen)),
        ])
        context.publisher.publish(Publication(topic: context.topics.scan, payload: summary.text, qos: 1))
    }

    /// A device's new `<id>`, kept as its alias (`devices.aliases`) through the options, which apply it at once. The
    /// whole map goes with the change, as an alias in the options replaces the file's whole list: the one dropped is
    /// named with null (the options drop a key so), and none left is an empty map, which a null would not say (the
    /// file's list would come back). A rename that changed the id is told to the fleet unless it came from there.
    func rename(_ address: String, to alias: String?, tellingFleet: Bool = true) async throws(CommandError) -> JSONValue
    {
        let before = context.id(of: address)
        if let alias, let owner = context.live.aliases.first(where: { $0.value == alias && $0.key != address })?.key {
            throw CommandError(.invalidValue, "'\(alias)' is the id of \(owner) already")
        }
        if (alias ?? DeviceID.from(address: address)) != before {
            var aliases = context.live.aliases
            aliases[address] = alias
            var change = aliases.mapValues(JSONValue.string)
            if alias == nil, !aliases.isEmpty { change[address] = .null }
            _ = try await changeOptions(["devices": .object(["aliases": .object(change)])])
            if tellingFleet { tellFleet(renamed: address, to: alias) }
        }
        return .object([
            "address": .string(address), "from": .string(before), "to": .string(context.id(of: address)),
        ])
    }

    /// Has the daemon check and keep the options, applies at once what can change at run time (which devices connect
    /// by themselves), and answers which key paths changed, which were applied and which wait for a restart.
    private func changeOptions(_ members: [String: JSONValue]) async throws(CommandError) -> JSONValue {
        guard let options else {
            throw CommandError(.invalidState, "this gateway keeps no options (it was not started by the daemon)")
        }
        let outcome = try await options.change(members)
        let (aliases, deviceOptions) = (context.live.aliases, context.live.deviceOptions)
        context.live.apply(outcome.configuration)
        if context.live.aliases != aliases { await sessions.aliasesChanged(from: aliases, to: context.live.aliases) }
        if context.live.deviceOptions != deviceOptions {
            sessions.deviceOptionsChanged(from: deviceOptions, to: context.live.deviceOptions)
        }
        let applied = outcome.changed.filter {
            LiveSettings.appliedAtRunTime.contains($0) || outcome.appliedByDaemon.contains($0)
        }
        let restartRequired = outcome.changed.filter { !applied.contains($0) }
        context.logger.notice(
            "options changed over MQTT",
            metadata: ["applied": "\(applied)", "restart_required": "\(restartRequired)"])
        if outcome.changed.contains(where: LiveSettings.appliedAtRunTime.contains) { await sessions.policyChanged() }
        info.refresh()
        return .object([
            "applied": .array(applied.map(JSONValue.string)),
            "restart_required": .array(restartRequired.map(JSONValue.string)),
        ])
    }
}
