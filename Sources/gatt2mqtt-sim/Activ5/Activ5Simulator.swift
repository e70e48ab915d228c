import BlueZ
import DBus
import Logging
import Peripherals

/// Settings of one simulated Activ5, from the command line.
struct Activ5SimulatorSettings: Sendable {
    /// Squeezes placed when force streaming first starts.
    var squeezes: [Activ5ScriptedSqueeze] = []
    /// How often the idle power-off is checked.
    var powerCheckInterval: Duration = .milliseconds(100)
    /// Shortest period of a stream, whatever F0FA says: a BLE link delivers at most one notification per
    /// connection interval (7.5 ms at best), and faster timers would only fill the application's queue.
    var minimumStreamPeriod: Duration = .milliseconds(10)
    /// F0FE values count 1, 2, 3, … (wrapping to 1 after 32767) instead of following the waveform, so that
    /// each can be told from the others downstream (the benchmark matches them by this sequence).
    var sequenceForce = false
}

/// The behaviour of an Activ5 behind `GattApplication` (activ5.md §10): `Activ5State` answers writes and
/// says what is due; this actor owns the clock, the stream timers, the force the user applies, the idle
/// power-off and the test protocol on standard output.
actor Activ5Simulator: SimulatedPeripheral {
    /// The periodic notifications.
    private enum Stream: CaseIterable {
        /// `IS` frames on 5A01 (after `ISOM!`).
        case legacyForce
        /// F0FE values.
        case force
        /// F0F5 samples.
        case imu
    }

    /// Yields once, when the device has switched itself off.
    nonisolated var powerOffs: AsyncStream<Void> { power.offs }

    private var state: Activ5State
    private let settings: Activ5SimulatorSettings
    private let application: GattApplication
    private let advertisement: LEAdvertisement
    private let registrar: PeripheralRegistrar
    private let output: SimulatorOutput
    private let logger: Logger
    private nonisolated let power = PowerSwitch()

    /// Zero of the times given to `Activ5State` and the waveform: when the device was switched on.
    private let origin = ContinuousClock.now
    private var waveform = Activ5ForceWaveform()
    private var frames = Activ5LegacyFrameBuffer()
    private var timers: [Stream: Task<Void, Never>] = [:]
    private var powerWatch: Task<Void, Never>?
    private var isForceStreaming = false
    private var squeezesPlaced = false
    private var isPoweredOff = false
    private var connectedCentrals: Set<String> = []
    /// Whether a host has connected since the device was switched on: its idle clock runs only from then.
    private var hostHasConnected = false
    /// The last F0FE value sent with `sequenceForce`.
    private var sequence: Int16 = 0

    init(
        state: Activ5State, settings: Activ5SimulatorSettings, application: GattApplication,
        advertisement: LEAdvertisement, registrar: PeripheralRegistrar, output: SimulatorOutput, logger: Logger
    ) {
        self.state = state
        self.settings = settings
        self.application = application
        self.advertisement = advertisement
        self.registrar = registrar
        self.output = output
        self.logger = logger
    }

    /// Starts watching the idle power-off clock, which runs once a host has connected (`checkPower`).
    func start() {
        guard powerWatch == nil else { return }
        let interval = settings.powerCheckInterval
        powerWatch = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: interval)
                guard let self, await !self.checkPower() else { return }
            }
        }
    }

    // MARK: Registration events

    /// Follows the registrar: READY after every registration; a lost link ends `ISOM!` streaming.
    func handle(_ event: PeripheralEvent) async {
        guard !isPoweredOff else { return }
        switch event {
        case .registered(let address, _):
            output.ready("a5", address: address, advertisement: advertisement)
        case .stackLost:
            syncStreams()
        case .centralConnected(let path):
            connectedCentrals.insert(path)
            hostHasConnected = true
            state.hostConnected(at: now)
            logger.info("central connected: \(path)")
        case .centralDisconnected(let path):
            connectedCentrals.remove(path)
            logger.info("central disconnected: \(path)")
            // Decision (activ5.md is silent): without a link the device goes back to stop mode, and the
            // idle power-off counts from there.
            if connectedCentrals.isEmpty, state.isLegacyStreaming { apply(.stop) }
        }
    }

    // MARK: GattApplicationDelegate

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        guard let value = state.readValue(characteristic: characteristic, at: now) else {
            throw BlueZPeripheralError.readNotPermitted
        }
        return value
    }

    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        output.line("WRITE \(characteristic) \(value.hex)")
        let request: Activ5Request
        do {
            request = try Activ5Request.decode(characteristic: characteristic, bytes: value)
        } catch {
            output.line("REJECT \(characteristic) \(value.hex) \(error.bluezErrorName) \(error.reason)")
            throw DBusError(name: error.bluezErrorName, message: error.description)
        }
        logger.debug("\(request)")
        apply(request)
    }

    func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) async {
        output.line("WRITE \(characteristic) \(value.hex)")
        output.line("REJECT \(characteristic) \(value.hex) \(error.name) \(error.message)")
    }

    func notificationsStarted(for characteristic: String) async {
        logger.debug("subscribed: \(characteristic)")
        apply(.subscribe(characteristic))
    }

    func notificationsStopped(for characteristic: String) async {
        logger.debug("unsubscribed: \(characteristic)")
        apply(.unsubscribe(characteristic))
    }

    // MARK: Console

    /// Runs one line of standard input.
    func run(_ line: String) {
        let command: Activ5ConsoleCommand?
        do {
            command = try Activ5ConsoleCommand.parse(line)
        } catch {
            output.line("ERROR \(error.reason)")
            return
        }
        switch command {
        case nil: return
        case .squeeze(let squeeze): waveform.squeeze(squeeze, at: now)
        case .force(let newtons): waveform.hold(newtons, from: now)
        case .rest: waveform.rest(from: now)
        case .battery(let percent): state.batteryLevel = percent
        case .powerOff(let seconds): state.idlePowerOffSeconds = seconds
        }
    }

    // MARK: State

    /// Seconds since the device was switched on.
    private var now: Double {
        let elapsed = ContinuousClock.now - origin
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// Applies a host operation: replies go out, streams follow the new state.
    private func apply(_ request: Activ5Request) {
        let time = now
        // `TARE!` zeroes what the user applies at this moment.
        state.appliedNewtons = waveform.newtons(at: time)
        for reply in state.apply(request, at: time) { send(reply) }
        syncStreams()
    }

    /// Starts the timers of the streams that are due and stops the others; prints STREAM on a change of
    /// force streaming and places the scripted squeezes when it first starts.
    private func syncStreams() {
        guard !isPoweredOff else { return }
        let time = now
        for stream in Stream.allCases {
            if notification(for: stream, at: time) == nil {
                timers.removeValue(forKey: stream)?.cancel()
            } else if timers[stream] == nil {
                startTimer(stream)
            }
        }
        let streaming = timers[.legacyForce] != nil || timers[.force] != nil
        guard streaming != isForceStreaming else { return }
        isForceStreaming = streaming
        output.line("STREAM \(streaming ? "on" : "off")")
        if streaming, !squeezesPlaced {
            squeezesPlaced = true
            for scripted in settings.squeezes { waveform.squeeze(scripted.squeeze, at: time + scripted.delaySeconds) }
        }
    }

    private func notification(for stream: Stream, at time: Double) -> Activ5Notification? {
        switch stream {
        case .legacyForce: state.legacyForceNotification()
        case .force: state.forceNotification()
        case .imu: state.imuNotification(at: time)
        }
    }

    /// Time between two notifications; F0FE follows the F0FA period.
    private func period(of stream: Stream) -> Duration {
        let seconds =
            switch stream {
            case .legacyForce: Activ5Timing.legacyForcePeriodSeconds
            case .force: state.forcePeriodSeconds
            case .imu: Activ5Timing.imuPeriodSeconds
            }
        return max(.milliseconds(Int((seconds * 1000).rounded())), settings.minimumStreamPeriod)
    }

    /// One notification of a stream, with the force sampled now.
    private func tick(_ stream: Stream) {
        let time = now
        if stream != .imu { state.appliedNewtons = waveform.newtons(at: time) }
        guard let notification = notification(for: stream, at: time) else { return syncStreams() }
        if settings.sequenceForce, case .force = notification {
            sequence = sequence == .max ? 1 : sequence + 1
            return send(.force(raw: sequence))
        }
        send(notification)
    }

    private func startTimer(_ stream: Stream) {
        // The period is read every round, so that an F0FA write applies at once.
        timers[stream] = RepeatingTimer.start(
            period: { [weak self] in await self?.period(of: stream) }, tick: { [weak self] in await self?.tick(stream) }
        )
    }

    private func send(_ notification: Activ5Notification) {
        switch notification {
        case .legacy(let message):
            // Through the device's 20-byte buffer, stale tail and all (activ5.md §4.2).
            application.notify(notification.characteristicUUID, value: frames.transmit(message))
        default:
            application.notify(notification.characteristicUUID, value: notification.encoded())
        }
    }

    // MARK: Power

    /// Switches off if the device has been idle in stop mode for too long; returns whether it did. Stop mode is a
    /// connected device's state (activ5.md §4.5, step 6): a device that no host has connected yet advertises and
    /// waits, however long discovery takes (on a loaded machine the real stack's took more than a test's 3 s).
    private func checkPower() async -> Bool {
        guard !isPoweredOff else { return true }
        guard hostHasConnected, state.isPoweredOff(at: now) else { return false }
        await powerOff()
        return true
    }

    /// A real device is off until someone presses its button: drop the links, withdraw application and
    /// advertisement, say so, and end.
    private func powerOff() async {
        isPoweredOff = true
        logger.notice("idle in stop mode for \(state.idlePowerOffSeconds) s: switching off")
        for timer in timers.values { timer.cancel() }
        timers = [:]
        await power.switchOff(application: application, registrar: registrar, output: output)
    }
}
