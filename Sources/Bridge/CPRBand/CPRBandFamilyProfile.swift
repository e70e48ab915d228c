import Peripherals

/// The Credo CPR-Band for the session engine, as the vendor's Bus library drives it: the streams are subscribed
/// first, the battery is read, `F1` puts the band in ready mode, and the mode users chose comes back; the battery is
/// read every minute and the signal told every 5 s (by default). Commands are acknowledged writes, one after the
/// other; the mode follows the last one.
struct CPRBandFamilyProfile: FamilyProfile {
    typealias Command = CPRBandCommand
    let family = DeviceFamily.cpr
    let options: CPRBandOptions
    /// The mode users asked for (practice, evaluation), which outlives a link: the driver's.
    let desired: DesiredStateStore

    /// The band's own telemetry reports its signal, with the distance it suggests.
    var reportsSignal: Bool { false }
    /// As Bus does: notifications on before the first write.
    var subscribesBeforeHandshake: Bool { true }
    var initialStreamState: CPRBandTelemetry { CPRBandTelemetry(options: options) }

    /// Seconds on one clock for every band: statistics and summaries only take differences.
    private static let origin = ContinuousClock.now
    private static var now: Double { (ContinuousClock.now - origin) / .seconds(1) }

    var streams: [ProfileStream<CPRBandTelemetry>] {
        let mapping = options.batteryMapping
        return CPRBandGATT.notifyingCharacteristics.map { uuid in
            ProfileStream(characteristic: uuid, service: CPRBandGATT.service) { telemetry, bytes in
                switch try CPRBandNotification.decode(characteristic: uuid, bytes: bytes, mapping: mapping) {
                case .depth(let depth): telemetry.peak(depth, at: Self.now)
                case .angle(let angle): [telemetry.angle(angle)]
                case .battery(let level): [telemetry.battery(level)]
                }
            }
        }
    }

    var timers: [ProfileTimer<Self>] {
        [
            ProfileTimer(key: "battery", interval: options.batteryInterval, pacedBy: CPRBandOptions.batterySetting) {
                device in
                do {
                    try await readBattery(device)
                } catch {
                    device.logger.warning("battery not read: \(error)")
                }
            },
            ProfileTimer(key: "signal", interval: options.signalInterval, pacedBy: CPRBandOptions.signalSetting) {
                device in
                await tellSignal(device)
            },
        ]
    }

    func handshake(_ device: ConnectedDevice<Self>) async throws -> HandshakeOutcome {
        try await readBattery(device)
        try await send(.onConnect, on: device)
        device.describe([:])
        return .streaming
    }

    func connected(_ device: ConnectedDevice<Self>) async {
        await tellSignal(device)
        await restoreDesired(device)
        device.logger.info("CPR-Band connected")
    }

    func linkEnded(_ telemetry: inout CPRBandTelemetry) -> [LeafOutput] { telemetry.setMode(.unknown, at: Self.now) }

    private func readBattery(_ device: ConnectedDevice<Self>) async throws {
        let uuid = CPRBandGATT.Characteristic.battery
        let bytes = try await device.read(uuid, in: CPRBandGATT.service)
        let mapping = options.batteryMapping
        guard
            case .battery(let level)? = device.decode(
                bytes, from: uuid, { try CPRBandNotification.decode(characteristic: uuid, bytes: $0, mapping: mapping) }
            )
        else { return }
        device.update { [$0.battery(level)] }
    }

    /// RSSI as BlueZ last measured it (from the band's advertising: BlueZ has no call that reads a connection's
    /// RSSI), with the distance it suggests; nothing while BlueZ has no measurement.
    private func tellSignal(_ device: ConnectedDevice<Self>) async {
        guard let current = await device.current(), let rssi = current.rssi else { return }
        device.update { $0.signal(rssi: rssi, advertisedTxPower: current.txPower) }
    }

    // MARK: Commands

    func execute(_ command: CPRBandCommand, name: String, on device: ConnectedDevice<Self>)
        async throws(CommandError)
        -> [String: JSONValue]
    {
        let mode = device.withStreamState { $0.mode }
        do {
            try command.checkAllowed(in: mode)
        } catch {
            throw CommandError(
                .invalidState,
                "'\(name)' is only allowed in ready mode; the band is \(CPRBandTelemetry.name(of: mode))")
        }
        do {
            try await send(command, on: device)
        } catch {
            throw CommandError(.gattError, "\(error)")
        }
        if case .range(let range) = command { device.withStreamState { $0.rangeChanged(range) } }
        // A band switched off by its users stays in ready mode when it returns.
        if let chosen = command.resultingMode { publishDesired(chosen == .off ? .ready : chosen, device) }
        // The band switches itself off after F7/FF; Bus drops the link at once (§A.5.1).
        if command.resultingMode == .off { device.endLink() }
        return [:]
    }

    /// Writes every byte of the command, each acknowledged before the next, as Bus does; the mode changes once the
    /// last one is acknowledged. A sequence shows as `sending` meanwhile.
    private func send(_ command: CPRBandCommand, on device: ConnectedDevice<Self>) async throws {
        let writes = command.writes
        if writes.count > 1 { device.update { [$0.sending()] } }
        do {
            for bytes in writes {
                try await device.write(bytes, to: command.characteristicUUID, in: CPRBandGATT.service)
            }
        } catch {
            if writes.count > 1 { device.update { $0.setMode($0.mode, force: true, at: Self.now) } }
            throw error
        }
        device.update { $0.setMode(command.mode(after: $0.mode), force: writes.count > 1, at: Self.now) }
    }

    /// Puts the band back in the mode users had chosen (`cpr/<id>/desired`): after a lost link, a crash, or on a
    /// fleet's new owner. Bus's `F1` on connect has made it ready; practice and evaluation follow.
    private func restoreDesired(_ device: ConnectedDevice<Self>) async {
        guard case .string(let name)? = desired.take(device.id)["mode"], let wanted = CPRBandMode(rawValue: name) else {
            return publishDesired(.ready, device)
        }
        let command: CPRBandCommand? = wanted == .practicing ? .practice : wanted == .evaluating ? .evaluate : nil
        if let command {
            do {
                try await send(command, on: device)
            } catch {
                device.logger.warning("could not restore \(name) mode: \(error)")
            }
        }
        publishDesired(wanted, device)
    }

    /// `cpr/<id>/desired`, retained: `{"mode":"practicing"}` (ready, practicing or evaluating).
    private func publishDesired(_ wanted: CPRBandMode, _ device: ConnectedDevice<Self>) {
        desired.record(["mode": .string(wanted.rawValue)], core: device.core)
    }
}
