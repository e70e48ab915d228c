import BlueZ
import DBus
import Logging
import Peripherals

/// Settings of one simulated belt, from the command line.
struct BeltSimulatorSettings: Sendable {
    var keepAlivePeriod: Duration = .seconds(2)
    /// Period of FE09 notifications after the first (belt.md §9.4: unknown on a real belt).
    var batteryPeriod: Duration = .seconds(10)
    /// Charge lost per battery period, in percent: slow enough that a test never empties it.
    var batteryDrainPercent = 0.1
    /// Heading change per orientation notification, in degrees.
    var headingStep = 3
    /// Orientation values count 0, 1, 2, … 359 instead of turning (`BeltHeadingSequence`).
    var sequenceHeading = false
    /// The shortest orientation period accepted from a central's write.
    var orientationPeriodFloor = BeltOrientationPeriodFloor()
    var buttons: [ScriptedButtonPress] = []
}

/// The behaviour of a naviBelt behind `GattApplication` (belt.md §6): `BeltState` answers writes, and
/// this actor owns the timers (keep-alive, battery, orientation), the buttons, the standby power-off
/// and the test protocol on standard output.
actor BeltSimulator: SimulatedPeripheral {
    private var state: BeltState
    private let settings: BeltSimulatorSettings
    private let application: GattApplication
    private let advertisement: LEAdvertisement
    private let registrar: PeripheralRegistrar
    private let output: SimulatorOutput
    private let logger: Logger

    private var timers: [String: Task<Void, Never>] = [:]
    private var buttonScript: Task<Void, Never>?
    private var heading = 0
    private var headingSequence = BeltHeadingSequence()
    private var batteryPercent: Double
    private var modeBeforePause: BeltMode?
    private var connectedCentrals: Set<String> = []

    init(
        state: BeltState, settings: BeltSimulatorSettings, application: GattApplication, advertisement: LEAdvertisement,
        registrar: PeripheralRegistrar, output: SimulatorOutput, logger: Logger
    ) {
        self.state = state
        self.settings = settings
        self.application = application
        self.advertisement = advertisement
        self.registrar = registrar
        self.output = output
        self.logger = logger
        self.batteryPercent = state.battery.levelPercent
    }

    // MARK: Registration events

    /// Follows the registrar: READY after every registration, link loss rules.
    func handle(_ event: PeripheralEvent) async {
        switch event {
        case .registered(let address, _):
            output.ready("belt", address: address, advertisement: advertisement)
        case .stackLost:
            stopAllTimers()
        case .centralConnected(let path):
            connectedCentrals.insert(path)
            logger.info("central connected: \(path)")
        case .centralDisconnected(let path):
            connectedCentrals.remove(path)
            logger.info("central disconnected: \(path)")
            // PY-DOC: a belt in app mode whose link drops goes back to wait.
            if connectedCentrals.isEmpty, state.mode == .app { setMode(.wait) }
        }
    }

    // MARK: GattApplicationDelegate

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        output.line("READ \(characteristic)")
        switch characteristic {
        case BeltGATT.Characteristic.firmwareInfo: return state.firmware.encoded()
        case BeltGATT.Characteristic.batteryStatus: return batteryStatus().encoded()
        default: throw BlueZPeripheralError.readNotPermitted
        }
    }

    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        output.line("WRITE \(characteristic) \(value.hex)")
        let request: BeltRequest
        do {
            if let shortPeriod = settings.orientationPeriodFloor.request(characteristic: characteristic, bytes: value) {
                request = shortPeriod
            } else {
                request = try BeltRequest.decode(characteristic: characteristic, bytes: value)
            }
        } catch {
            output.line("REJECT \(characteristic) \(value.hex) \(error.bluezErrorName) \(error.reason)")
            throw DBusError(name: error.bluezErrorName, message: error.description)
        }
        let previousMode = state.mode
        let previousName = state.name
        let replies = state.apply(request)
        for reply in replies { send(reply) }
        if state.name != previousName {
            // BlueZ reads the advertisement once, so the new name shows from the next registration on.
            var description = advertisement.description
            description.localName = state.name
            advertisement.update(description)
        }
        if state.mode != previousMode { await modeChanged(from: previousMode) }
    }

    func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) async {
        output.line("WRITE \(characteristic) \(value.hex)")
        output.line("REJECT \(characteristic) \(value.hex) \(error.name) \(error.message)")
    }

    func notificationsStarted(for characteristic: String) async {
        logger.debug("subscribed: \(characteristic)")
        startButtonScriptOnce()
        switch characteristic {
        case BeltGATT.Characteristic.keepAlive:
            startTimer(characteristic, period: { $0.settings.keepAlivePeriod }) { belt in
                belt.send(belt.state.keepAlive)
            }
        case BeltGATT.Characteristic.batteryStatus:
            send(.battery(batteryStatus()))
            startTimer(characteristic, period: { $0.settings.batteryPeriod }) { belt in
                belt.batteryPercent = max(0, belt.batteryPercent - belt.settings.batteryDrainPercent)
                belt.send(.battery(belt.batteryStatus()))
            }
        case BeltGATT.Characteristic.orientation:
            // Re-read every round, so that an orientation-period write (`11 0F …`) applies at once.
            headingSequence.restart()
            startTimer(characteristic, period: { .milliseconds(Int($0.state.orientationPeriodMs)) }) { belt in
                belt.send(.orientation(belt.nextOrientation()))
            }
        default:
            break
        }
    }

    func notificationsStopped(for characteristic: String) async {
        logger.debug("unsubscribed: \(characteristic)")
        timers.removeValue(forKey: characteristic)?.cancel()
    }

    // MARK: Console

    /// Runs one line of standard input.
    func run(_ line: String) async {
        let command: BeltConsoleCommand?
        do {
            command = try BeltConsoleCommand.parse(line)
        } catch {
            output.line("ERROR \(error.reason)")
            return
        }
        switch command {
        case nil: return
        case .button(let button, let long): await press(button, long: long)
        case .mode(let mode):
            guard mode != state.mode else { return }
            let previous = state.mode
            state.mode = mode
            // An unsolicited change, announced as belt.md §4.3 allows.
            send(.parameter(.mode(mode)))
            await modeChanged(from: previous)
        case .battery(let percent):
            batteryPercent = percent
            send(.battery(batteryStatus()))
        case .raw(let characteristic, let bytes):
            application.notify(characteristic, value: bytes)
        }
    }

    // MARK: Buttons

    private func press(_ button: BeltButton, long: Bool) async {
        if state.mode == .standby {
            // Switched off: only the power button does anything, and it switches the belt on.
            guard button == .power else { return logger.info("\(button.name) pressed while switched off: ignored") }
            let previous = state.mode
            state.mode = .wait
            await modeChanged(from: previous)
            return
        }
        let effect = BeltButtonRules.press(
            button, long: long, mode: state.mode, modeBeforePause: modeBeforePause, intensity: state.defaultIntensity)
        let previous = state.mode
        send(.button(BeltButtonEvent(button: button, longPress: long, previousMode: previous, newMode: effect.newMode)))
        if let intensity = effect.newIntensity, intensity != state.defaultIntensity {
            state.defaultIntensity = intensity
            send(.parameter(.defaultIntensity(intensity)))
        }
        state.mode = effect.newMode
        if effect.newMode != previous { await modeChanged(from: previous) }
    }

    private func startButtonScriptOnce() {
        guard buttonScript == nil, !settings.buttons.isEmpty else { return }
        let presses = settings.buttons
        buttonScript = Task { [weak self] in
            let start = ContinuousClock.now
            for press in presses {
                try? await Task.sleep(until: start + .milliseconds(Int(press.delaySeconds * 1000)), clock: .continuous)
                guard !Task.isCancelled else { return }
                await self?.press(press.button, long: press.long)
            }
        }
    }

    // MARK: Modes and power

    /// Prints MODE, and switches the belt off (standby) or on (leaving standby).
    private func modeChanged(from previous: BeltMode) async {
        let mode = state.mode
        output.line("MODE \(mode.name)")
        if mode == .pause, previous != .pause { modeBeforePause = previous }
        if mode == .standby {
            await powerOff()
        } else if previous == .standby {
            logger.info("switching on")
            await registrar.register()
        }
    }

    private func setMode(_ mode: BeltMode) {
        guard mode != state.mode else { return }
        state.mode = mode
        output.line("MODE \(mode.name)")
    }

    /// Standby is "everything off, BLE included" (belt.md §4.2): the belt lets its last notifications
    /// go out, drops its links and stops advertising until switched on again.
    private func powerOff() async {
        logger.info("switching off")
        await application.flushNotifications()
        try? await Task.sleep(for: .milliseconds(200))
        stopAllTimers()
        await registrar.unregister()
    }

    // MARK: Notifications

    private func send(_ notification: BeltNotification) {
        application.notify(notification.characteristicUUID, value: notification.encoded())
    }

    private func batteryStatus() -> BeltBatteryStatus {
        // About 10 h from full, in proportion to the charge.
        BeltBatteryStatus(
            powerStatus: state.battery.powerStatus, levelPercent: batteryPercent, timeSeconds: batteryPercent * 360,
            currentMilliamps: -180, voltageMillivolts: UInt16(3_500 + batteryPercent * 7))
    }

    /// A heading that turns slowly, offset applied as on the wire (belt.md §4.5); with
    /// `--sequence-heading`, the next value of the count instead.
    private func nextOrientation() -> BeltOrientation {
        if settings.sequenceHeading { return headingSequence.orientation() }
        heading = (heading + settings.headingStep) % 360
        let box = (heading - Int(state.headingOffset) + 360) % 360
        return BeltOrientation(beltHeading: Int16(heading), boxHeading: Int16(box), accuracy: 5)
    }

    private func startTimer(
        _ characteristic: String, period: @escaping @Sendable (isolated BeltSimulator) -> Duration,
        tick: @escaping @Sendable (isolated BeltSimulator) -> Void
    ) {
        timers[characteristic]?.cancel()
        timers[characteristic] = RepeatingTimer.start(
            period: { [weak self] in await self?.period(period) }, tick: { [weak self] in await self?.tick(tick) })
    }

    private func period(_ read: @Sendable (isolated BeltSimulator) -> Duration) -> Duration { read(self) }
    private func tick(_ run: @Sendable (isolated BeltSimulator) -> Void) { run(self) }

    private func stopAllTimers() {
        for timer in timers.values { timer.cancel() }
        timers = [:]
    }
}
