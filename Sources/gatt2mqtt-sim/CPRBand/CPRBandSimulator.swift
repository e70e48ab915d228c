import BlueZ
import DBus
import Logging
import Peripherals

/// Settings of one simulated CPR-Band, from the command line.
struct CPRBandSimulatorSettings: Sendable {
    /// Compressions per minute while practicing or evaluating; 0 leaves compressions to `compress`.
    var compressionsPerMinute = 110.0
    /// Peak depths of the automatic compressions.
    var depth = CPRBandDepthSpec(argument: "55")!
    /// Period of the angle notifications (§A.8.2: about every 100 ms).
    var anglePeriod: Duration = .milliseconds(100)
    /// Seed of the depth and angle draws.
    var seed: UInt64 = 0
    /// With `--sequence-peaks`: FFF1 carries `CPRBandPeakSequence` at this rate while subscribed, in every
    /// mode, instead of compressions.
    var sequencePeaksPerSecond: Int?
    /// Time between acknowledging `F7`/`FF` and dropping the link, so the write response goes out first.
    var powerOffDelay: Duration = .milliseconds(200)
}

/// The behaviour of a CPR-Band behind `GattApplication` (cpr-band-and-grip.md §A.13): `CPRBandState`
/// answers writes to FFF4; this actor owns the link events, the depth and angle streams while the band
/// practices or evaluates, the power-off and the test protocol on standard output.
actor CPRBandSimulator: SimulatedPeripheral {
    /// The periodic notifications.
    private enum Stream: CaseIterable {
        /// FFF1, one peak per compression.
        case depth
        /// FFF2, the wrist angle.
        case angle
        /// FFF1 with `--sequence-peaks`.
        case peakSequence
    }

    /// Yields once, when the band has switched itself off.
    nonisolated var powerOffs: AsyncStream<Void> { power.offs }

    private var state: CPRBandState
    private let settings: CPRBandSimulatorSettings
    private let application: GattApplication
    private let advertisement: LEAdvertisement
    private let registrar: PeripheralRegistrar
    private let output: SimulatorOutput
    private let logger: Logger
    private nonisolated let power = PowerSwitch()

    /// Zero of the angle sway: when the band was switched on.
    private let origin = ContinuousClock.now
    private var motion: CPRBandMotion
    private var peakSequence = CPRBandPeakSequence()
    private var timers: [Stream: Task<Void, Never>] = [:]
    private var powerOffTask: Task<Void, Never>?
    private var connectedCentrals: Set<String> = []

    init(
        state: CPRBandState, settings: CPRBandSimulatorSettings, application: GattApplication,
        advertisement: LEAdvertisement, registrar: PeripheralRegistrar, output: SimulatorOutput, logger: Logger
    ) {
        self.state = state
        self.settings = settings
        self.application = application
        self.advertisement = advertisement
        self.registrar = registrar
        self.output = output
        self.logger = logger
        motion = CPRBandMotion(depth: settings.depth, seed: settings.seed)
    }

    // MARK: Registration events

    /// Follows the registrar: READY after every registration; a central connecting puts the band in
    /// ready mode, silent (§A.3).
    func handle(_ event: PeripheralEvent) async {
        guard state.mode != .off else { return }
        switch event {
        case .registered(let address, _):
            output.ready("cpr", address: address, advertisement: advertisement)
        case .stackLost:
            logger.warning("the Bluetooth stack went away; streams follow the mode when it is back")
        case .centralConnected(let path):
            let isFirst = connectedCentrals.isEmpty
            connectedCentrals.insert(path)
            logger.info("central connected: \(path)")
            if isFirst { changeMode { $0.connect() } }
        case .centralDisconnected(let path):
            connectedCentrals.remove(path)
            logger.info("central disconnected: \(path)")
            // The state keeps the mode; the next connection resets it to ready.
            if connectedCentrals.isEmpty { state.disconnect() }
        }
    }

    // MARK: GattApplicationDelegate

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        output.line("READ \(characteristic)")
        guard characteristic == CPRBandGATT.Characteristic.battery else { throw BlueZPeripheralError.readNotPermitted }
        return state.batteryReadValue
    }

    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        output.line("WRITE \(characteristic) \(value.hex)")
        let requests: [CPRBandRequest]
        do {
            requests = try CPRBandRequest.decode(characteristic: characteristic, bytes: value)
        } catch {
            output.line("REJECT \(characteristic) \(value.hex) \(error.bluezErrorName) \(error.reason)")
            throw DBusError(name: error.bluezErrorName, message: error.description)
        }
        for request in requests {
            var responses: [CPRBandResponse] = []
            changeMode { responses = $0.apply(request) }
            for response in responses { carryOut(response, for: request) }
        }
    }

    func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) async {
        output.line("WRITE \(characteristic) \(value.hex)")
        output.line("REJECT \(characteristic) \(value.hex) \(error.name) \(error.message)")
    }

    func notificationsStarted(for characteristic: String) async {
        logger.debug("subscribed: \(characteristic)")
        if characteristic == CPRBandGATT.Characteristic.depth { peakSequence.restart() }
        syncStreams()
    }

    func notificationsStopped(for characteristic: String) async {
        logger.debug("unsubscribed: \(characteristic)")
        syncStreams()
    }

    // MARK: Console

    /// Runs one line of standard input.
    func run(_ line: String) {
        let command: CPRBandConsoleCommand?
        do {
            command = try CPRBandConsoleCommand.parse(line)
        } catch {
            output.line("ERROR \(error.reason)")
            return
        }
        switch command {
        case nil: return
        case .compress(let millimetres):
            guard state.mode.isStreaming else {
                output.line("ERROR not compressing: the band is \(state.mode.rawValue)")
                return
            }
            sendDepth(CPRBandDepth(millimetres: millimetres))
        case .angle(let degrees):
            motion.heldDegrees = degrees
            if state.mode.isStreaming { tick(.angle) }
        case .battery(let raw):
            state.batteryRaw = raw
            logger.info("battery byte now 0x\([raw].hex)")
        }
    }

    // MARK: State

    /// Seconds since the band was switched on.
    private var now: Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// Runs a change of the state; prints MODE when the mode changed and makes the streams follow it.
    private func changeMode(_ change: (inout CPRBandState) -> Void) {
        let previous = state.mode
        change(&state)
        guard state.mode != previous else { return }
        output.line("MODE \(state.mode.rawValue)")
        syncStreams()
    }

    /// What the band does beyond its mode (which `changeMode` has already handled).
    private func carryOut(_ response: CPRBandResponse, for request: CPRBandRequest) {
        switch response {
        case .modeSet(let mode):
            logger.info("mode \(mode.rawValue)")
        case .called:
            // LEDs on and the buzzer: nothing to see over the air.
            logger.info("called: LEDs on, buzzer rings")
            output.line("CALL")
        case .rangeChanged(let minimum, let maximum):
            logger.info("correct depth range now \(minimum)–\(maximum) mm")
            output.line("RANGE \(minimum) \(maximum)")
        case .nameChanged(let name):
            // BlueZ reads the advertisement once, so the new name shows from the next registration on.
            var description = advertisement.description
            description.localName = name
            advertisement.update(description)
            logger.info("name now '\(name)'")
            output.line("NAME \(name)")
        case .factoryReset:
            logger.info(
                "factory reset: name \(state.name), range \(state.minimumDepthMillimetres)–\(state.maximumDepthMillimetres) mm"
            )
        case .poweredOff:
            schedulePowerOff()
        case .factoryCommandRecorded(let opcode):
            logger.info("factory command \(opcode) recorded, no effect")
        case .ignored(let reason):
            logger.notice("ignored 0x\([request.byte].hex): \(Self.describe(reason))")
        }
    }

    private static func describe(_ reason: CPRBandIgnoredReason) -> String {
        switch reason {
        case .notReady(let opcode, let mode): "\(opcode) is only accepted in ready mode, the band is \(mode.rawValue)"
        case .poweredOff: "the band is switched off"
        case .unexpectedValue: "neither a command nor an awaited argument"
        }
    }

    /// Starts the streams that are due in the current mode (or, for the peak sequence, subscription) and
    /// stops the others.
    private func syncStreams() {
        for stream in Stream.allCases {
            if isDue(stream) {
                if timers[stream] == nil { startTimer(stream) }
            } else {
                timers.removeValue(forKey: stream)?.cancel()
            }
        }
    }

    private func isDue(_ stream: Stream) -> Bool {
        switch stream {
        case .depth:
            state.mode.isStreaming && settings.compressionsPerMinute > 0 && settings.sequencePeaksPerSecond == nil
        case .angle: state.mode.isStreaming
        case .peakSequence:
            settings.sequencePeaksPerSecond != nil && application.isNotifying(CPRBandGATT.Characteristic.depth)
        }
    }

    private func period(of stream: Stream) -> Duration {
        switch stream {
        case .depth: .milliseconds(Int((60_000 / settings.compressionsPerMinute).rounded()))
        case .angle: settings.anglePeriod
        case .peakSequence: RepeatingTimer.period(perSecond: settings.sequencePeaksPerSecond ?? 1)
        }
    }

    /// One notification of a stream.
    private func tick(_ stream: Stream) {
        guard isDue(stream) else { return }
        switch stream {
        case .depth: sendDepth(motion.nextDepth())
        case .angle: send(.angle(motion.angle(at: now)))
        // No DEPTH line: at up to 1000 a second the traffic log records them instead.
        case .peakSequence: send(.depth(peakSequence.depth()))
        }
    }

    /// A compression: prints DEPTH when the peak went to a subscribed central.
    private func sendDepth(_ depth: CPRBandDepth) {
        if send(.depth(depth)) { output.line("DEPTH \(depth.millimetres)") }
    }

    @discardableResult
    private func send(_ notification: CPRBandNotification) -> Bool {
        application.notify(notification.characteristicUUID, value: notification.encoded())
    }

    private func startTimer(_ stream: Stream) {
        let period = period(of: stream)
        timers[stream] = RepeatingTimer.start(
            period: { [weak self] in self.map { _ in period } }, tick: { [weak self] in await self?.tick(stream) })
    }

    // MARK: Power

    /// `F7`/`FF` were acknowledged: switch off shortly afterwards, once the write response is out.
    private func schedulePowerOff() {
        guard powerOffTask == nil else { return }
        let delay = settings.powerOffDelay
        powerOffTask = Task { [weak self] in
            try? await Task.sleep(for: delay)
            await self?.powerOff()
        }
    }

    /// A switched-off band is gone until someone presses its button: drop the links, withdraw the
    /// application and the advertisement, say so, and end.
    private func powerOff() async {
        logger.notice("switching off")
        for timer in timers.values { timer.cancel() }
        timers = [:]
        await power.switchOff(application: application, registrar: registrar, output: output)
    }
}
