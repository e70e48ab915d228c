import BlueZ
import Logging
import Peripherals

/// One CPR-Band: writes `F1` on connect as the vendor's Bus library does, tracks the mode from
/// acknowledged writes (the band never reports it), and publishes peaks, angle, statistics and
/// session summaries.
actor CPRBandSession: LinkedSession, CommandedSession {
    private let options: CPRBandOptions
    private let started = ContinuousClock.now
    nonisolated let core: SessionCore
    var state = ConnectionState.disconnected
    private var mode = CPRBandMode.unknown
    /// Peaks and angles, on the thread that received them once connected; with the rest of the telemetry.
    private let telemetry: TelemetryLane<CPRBandTelemetry>

    /// The mode users asked for (practice, evaluation): restored on every connect, after the `F1` Bus sends.
    private let desired: DesiredStateStore

    init(device: BlueZDevice, context: SessionContext, options: CPRBandOptions, desired: DesiredStateStore) {
        // The band's own telemetry reports its signal, every `cpr.signal_s`, with the distance it suggests.
        core = SessionCore(device: device, context: context, family: .cpr, reportsSignal: false)
        self.options = options
        self.desired = desired
        telemetry = TelemetryLane(
            core: core, state: CPRBandTelemetry(id: context.id, topics: context.publisher.topics, options: options))
    }

    private var now: Double { (ContinuousClock.now - started) / .seconds(1) }

    // MARK: Lifecycle

    func tearDown() async {
        setMode(.unknown)
        telemetry.stop { $0.reset() }
        setState(.disconnected)
    }

    func connectAndSetUp() async throws {
        setState(.connecting)
        try await core.link.connect()
        setState(.handshake)
        for uuid in CPRBandGATT.notifyingCharacteristics { try await subscribe(uuid) }
        let battery = try await core.link.read(CPRBandGATT.Characteristic.battery)
        received(battery, from: CPRBandGATT.Characteristic.battery)
        try await send(.onConnect)
        setState(.connected)
        telemetry.goLive()
        let members = core.infoMembers
        telemetry.publish { $0.info(members) }
        await publishSignal()
        await restoreDesired()
        // As Bus does: the battery every minute, RSSI and distance every 5 s (by default).
        core.connection.repeating("battery", every: options.batteryInterval) { [weak self] in
            await self?.refreshBattery()
        }
        core.connection.repeating("signal", every: options.signalInterval) { [weak self] in await self?.publishSignal()
        }
        core.logger.info("CPR-Band connected")
    }

    private func refreshBattery() async {
        do {
            received(
                try await core.link.read(CPRBandGATT.Characteristic.battery), from: CPRBandGATT.Characteristic.battery)
        } catch {
            core.logger.warning("battery not read: \(error)")
        }
    }

    /// RSSI as BlueZ last measured it (from the band's advertising: BlueZ has no call that reads a
    /// connection's RSSI), with the distance it suggests; nothing while BlueZ has no measurement.
    private func publishSignal() async {
        guard let device = await core.link.current(), let rssi = device.rssi else { return }
        telemetry.publish { $0.signal(rssi: rssi, advertisedTxPower: device.txPower) }
    }

    private func subscribe(_ uuid: String) async throws {
        let stream = try await core.link.notifications(of: uuid, in: CPRBandGATT.service, lane: lane(for: uuid))
        core.connection.stream(uuid, stream) { [weak self] bytes in await self?.received(bytes, from: uuid) }
    }

    // MARK: Notifications

    /// Depth peaks and angles are the band's streams: their values take the lane.
    private nonisolated func lane(for uuid: String) -> NotificationLane {
        let (mapping, started) = (options.batteryMapping, started)
        return telemetry.lane(for: uuid) { telemetry, bytes in
            let notification = try CPRBandNotification.decode(characteristic: uuid, bytes: bytes, mapping: mapping)
            return Self.publications(
                for: notification, in: &telemetry, at: (ContinuousClock.now - started) / .seconds(1))
        }
    }

    /// The battery, and what the lane did not take (before the link was up): malformed bytes are counted and logged.
    private func received(_ bytes: [UInt8], from uuid: String) {
        let mapping = options.batteryMapping
        guard
            let notification = core.decode(
                bytes, from: uuid, { try CPRBandNotification.decode(characteristic: uuid, bytes: $0, mapping: mapping) }
            )
        else { return }
        let now = now
        telemetry.publish { Self.publications(for: notification, in: &$0, at: now) }
    }

    private static func publications(
        for notification: CPRBandNotification, in telemetry: inout CPRBandTelemetry, at seconds: Double
    ) -> [Publication] {
        switch notification {
        case .depth(let depth): telemetry.peak(depth, at: seconds)
        case .angle(let angle): [telemetry.angle(angle)]
        case .battery(let level): telemetry.battery(level)
        }
    }

    // MARK: Commands

    func execute(_ command: CPRBandCommand, name: String) async throws(CommandError) -> [String: JSONValue] {
        guard state == .connected else { throw CommandError(.notConnected, "CPR-Band \(id) is \(state.rawValue)") }
        do {
            try command.checkAllowed(in: mode)
        } catch {
            throw CommandError(
                .invalidState, "'\(name)' is only allowed in ready mode; the band is \(CPRBandTelemetry.name(of: mode))"
            )
        }
        do {
            try await send(command)
        } catch {
            throw CommandError(.gattError, "\(error)")
        }
        if case .range(let range) = command { telemetry.withState { $0.rangeChanged(range) } }
        // A band switched off by its users stays in ready mode when it returns.
        if let chosen = command.resultingMode { publishDesired(chosen == .off ? .ready : chosen) }
        if command.resultingMode == .off {
            // The band switches itself off after F7/FF; Bus drops the link at once (§A.5.1).
            core.loss.expectEnding()
            core.connection.spawn { [core] in
                await core.link.disconnect()
                core.loss.signal(.ended)
            }
        }
        return [:]
    }

    /// Writes every byte of the command, each acknowledged before the next, as Bus does; the mode
    /// changes once the last one is acknowledged. A sequence shows as `sending` meanwhile.
    private func send(_ command: CPRBandCommand) async throws {
        let writes = command.writes
        if writes.count > 1 { telemetry.publish { $0.sending() } }
        do {
            for bytes in writes {
                try await core.link.write(bytes, to: command.characteristicUUID, in: CPRBandGATT.service)
            }
        } catch {
            if writes.count > 1 { setMode(mode, force: true) }
            throw error
        }
        setMode(command.mode(after: mode), force: writes.count > 1)
    }

    /// Puts the band back in the mode users had chosen (`cpr/<id>/desired`): after a lost link, a crash, or
    /// on a fleet's new owner. Bus's `F1` on connect has made it ready; practice and evaluation follow.
    private func restoreDesired() async {
        guard case .string(let name)? = desired.take(id)["mode"], let wanted = CPRBandMode(rawValue: name) else {
            return publishDesired(.ready)
        }
        let command: CPRBandCommand? = wanted == .practicing ? .practice : wanted == .evaluating ? .evaluate : nil
        if let command {
            do {
                try await send(command)
            } catch {
                core.logger.warning("could not restore \(name) mode: \(error)")
            }
        }
        publishDesired(wanted)
    }

    /// `cpr/<id>/desired`, retained: `{"mode":"practicing"}` (ready, practicing or evaluating).
    private func publishDesired(_ wanted: CPRBandMode) {
        desired.record(["mode": .string(wanted.rawValue)], core: core)
    }

    private func setMode(_ newMode: CPRBandMode, force: Bool = false) {
        guard newMode != mode || force else { return }
        let previous = mode
        mode = newMode
        let now = now
        telemetry.publish { $0.mode(newMode, from: previous, at: now) }
    }
}
