import BlueZ
import DBus
import Foundation
import Logging
import Peripherals

/// Settings of one simulated grip, from the command line.
struct GripSimulatorSettings: Sendable {
    /// Every wire constant: UUIDs, event bytes, whether bonding is required.
    var profile: GripProfile
    /// What the firmware revision characteristic returns.
    var firmware: GripFirmwareVersion
    /// The other Device Information strings (HYPOTHETICAL values: a real grip's are unknown).
    var manufacturer = "Fjorden"
    var model = "Grip"
    var hardware = "1.0"
    /// Battery level at start, percent.
    var batteryPercent = 85
    /// Actions placed when the event characteristic is first subscribed.
    var script: [GripScriptedAction] = []
    /// The grip keeps its bond with another host and refuses every central, bonded here or not.
    var bondedElsewhere = false
    /// With `--events-per-second`: the event characteristic carries `GripEventCycle` at this rate while
    /// subscribed.
    var eventsPerSecond: Int?
}

/// The behaviour of a Fjorden grip behind `GattApplication` (cpr-band-and-grip.md §B.3–§B.5): bonding
/// required for every access, one host at a time, events as one-byte notifications encoded through the
/// profile, battery and Device Information reads. Owns the test protocol on standard output.
///
/// Bonding is checked the way the grip's stack would see it: the central's `Device1` object on our
/// adapter (the `device` option BlueZ gives with a read or write) must be `Paired` or `Bonded`.
/// StartNotify comes without options (bluetoothd 5.66, BlueZoo), so it is checked against the one
/// central the grip has accepted.
actor GripSimulator: SimulatedPeripheral {
    /// `org.bluez.Error.NotPermitted` "Not paired": what bluetoothd makes of ATT's insufficient
    /// authentication or encryption (foundations.md §1.4).
    static let notPaired = DBusError(name: "org.bluez.Error.NotPermitted", message: "Not paired")

    private let settings: GripSimulatorSettings
    private let profile: GripProfile
    private let connection: DBusConnection
    private let application: GattApplication
    private let advertisement: LEAdvertisement
    private let output: SimulatorOutput
    private let logger: Logger

    private var batteryPercent: Int
    /// The central the grip serves (its Device1 path on our adapter); others are refused.
    private var activeCentral: String?
    /// Centrals found bonded during their current connection (BONDED printed once per connection).
    private var bondedCentrals: Set<String> = []
    private var scriptStarted = false
    private var scriptTask: Task<Void, Never>?
    private var player: Task<Void, Never>?
    private let actions: AsyncStream<GripAction>
    private var eventCycle: GripEventCycle
    private var eventStream: Task<Void, Never>?
    private let actionSink: AsyncStream<GripAction>.Continuation

    init(
        settings: GripSimulatorSettings, connection: DBusConnection, application: GattApplication,
        advertisement: LEAdvertisement, output: SimulatorOutput, logger: Logger
    ) {
        self.settings = settings
        self.profile = settings.profile.normalized()
        self.connection = connection
        self.application = application
        self.advertisement = advertisement
        self.output = output
        self.logger = logger
        self.batteryPercent = settings.batteryPercent
        (actions, actionSink) = AsyncStream<GripAction>.makeStream()
        eventCycle = GripEventCycle(profile: profile)
    }

    /// Starts the player that sends actions one after the other, so that sequences never interleave.
    func start() {
        guard player == nil else { return }
        let actions = self.actions
        player = Task { [weak self] in
            for await action in actions {
                guard let self else { return }
                await self.play(action)
            }
        }
    }

    // MARK: Registration events

    /// READY after every registration; one central at a time.
    func handle(_ event: PeripheralEvent) {
        switch event {
        case .registered(let address, _):
            output.ready("grip", address: address, advertisement: advertisement)
        case .stackLost:
            activeCentral = nil
            bondedCentrals = []
        case .centralConnected(let path):
            if activeCentral == nil || activeCentral == path {
                activeCentral = path
                logger.info("central connected: \(path)")
            } else {
                refuse(path)
            }
        case .centralDisconnected(let path):
            logger.info("central disconnected: \(path)")
            bondedCentrals.remove(path)
            if activeCentral == path { activeCentral = nil }
        }
    }

    /// The grip keeps one host: a second central is dropped from our side.
    private func refuse(_ path: String) {
        output.line("REFUSED \(Self.address(of: path))")
        logger.notice("refusing \(path): already serving \(activeCentral ?? "-")")
        let connection = self.connection
        let logger = self.logger
        Task {
            do {
                _ = try await connection.call(
                    destination: "org.bluez", path: path, interface: "org.bluez.Device1", member: "Disconnect",
                    timeout: .seconds(10))
            } catch {
                logger.warning("cannot disconnect \(path): \(error)")
            }
        }
    }

    // MARK: GattApplicationDelegate

    func readValue(of characteristic: String, options: GattRequestOptions) async throws -> [UInt8] {
        try await authorize(characteristic, value: nil, options: options)
        let info = profile.deviceInformation
        switch characteristic {
        case profile.battery.levelCharacteristicUUID: return profile.encodedBattery(level: batteryPercent)
        case info.manufacturerNameUUID: return profile.encodedDeviceInformation(settings.manufacturer)
        case info.modelNumberUUID: return profile.encodedDeviceInformation(settings.model)
        case info.hardwareRevisionUUID: return profile.encodedDeviceInformation(settings.hardware)
        case info.firmwareRevisionUUID: return profile.encodedFirmware(settings.firmware)
        default: throw BlueZPeripheralError.readNotPermitted
        }
    }

    func writeValue(_ value: [UInt8], to characteristic: String, options: GattRequestOptions) async throws {
        // No grip characteristic is writable, so the application refuses writes before they get here
        // (`writeRefused`); kept for profiles that might add one.
        output.line("WRITE \(characteristic) \(Self.hex(value))")
        try await authorize(characteristic, value: value, options: options)
        output.line(
            "REJECT \(characteristic) \(Self.hex(value)) \(BlueZPeripheralError.writeNotPermitted.name) \(BlueZPeripheralError.writeNotPermitted.message)"
        )
        throw BlueZPeripheralError.writeNotPermitted
    }

    func writeRefused(_ value: [UInt8], to characteristic: String, error: DBusError) async {
        output.line("WRITE \(characteristic) \(Self.hex(value))")
        output.line("REJECT \(characteristic) \(Self.hex(value)) \(error.name) \(error.message)")
    }

    func authorizeNotifications(for characteristic: String, options: GattRequestOptions) async throws {
        try await authorize(characteristic, value: nil, options: options)
    }

    func notificationsStarted(for characteristic: String) async {
        logger.info("subscribed: \(characteristic)")
        guard characteristic == profile.eventCharacteristicUUID else { return }
        startEventStream()
        guard !scriptStarted else { return }
        scriptStarted = true
        startScript()
    }

    func notificationsStopped(for characteristic: String) async {
        logger.info("unsubscribed: \(characteristic)")
        if characteristic == profile.eventCharacteristicUUID { stopEventStream() }
    }

    // MARK: Bonding

    /// Lets a request through only from the accepted central, and only once it is bonded; prints
    /// REJECT and throws `notPaired` otherwise, BONDED the first time it succeeds on a connection.
    private func authorize(_ characteristic: String, value: [UInt8]?, options: GattRequestOptions) async throws {
        guard profile.pairingRequired else { return }
        // A request can overtake the Connected signal: the first central seen is the one accepted.
        guard let device = options.device ?? activeCentral else {
            throw reject(characteristic, value: value, because: "no central known")
        }
        if activeCentral == nil { activeCentral = device }
        guard device == activeCentral else {
            throw reject(characteristic, value: value, because: "\(device) is not the grip's host")
        }
        if settings.bondedElsewhere {
            throw reject(characteristic, value: value, because: "the grip is bonded to another host")
        }
        if bondedCentrals.contains(device) { return }
        guard await isBonded(device) else {
            throw reject(characteristic, value: value, because: "\(device) is not bonded")
        }
        if bondedCentrals.insert(device).inserted { output.line("BONDED \(Self.address(of: device))") }
    }

    private func reject(_ characteristic: String, value: [UInt8]?, because reason: String) -> DBusError {
        let error = Self.notPaired
        logger.info("refusing access to \(characteristic): \(reason)")
        output.line("REJECT \(characteristic) \(value.map(Self.hex) ?? "-") \(error.name) \(error.message)")
        return error
    }

    /// Whether the central's Device1 object on our adapter reads Paired or Bonded.
    private func isBonded(_ device: String) async -> Bool {
        do {
            let reply = try await connection.call(
                destination: "org.bluez", path: device, interface: DBusStandardInterface.properties, member: "GetAll",
                arguments: [.string("org.bluez.Device1")], timeout: .seconds(5))
            let properties = reply.first?.stringKeyed ?? [:]
            return properties["Paired"]?.bool == true || properties["Bonded"]?.bool == true
        } catch {
            logger.warning("cannot read the pairing state of \(device): \(error)")
            return false
        }
    }

    // MARK: Events

    /// Places the `--script` actions, timed from now (the first subscription).
    private func startScript() {
        let script = settings.script
        guard !script.isEmpty else { return }
        let origin = ContinuousClock.now
        let sink = actionSink
        scriptTask = Task {
            for item in script {
                try? await Task.sleep(until: origin + .seconds(item.delaySeconds), clock: .continuous)
                if Task.isCancelled { return }
                sink.yield(item.action)
            }
        }
    }

    /// `--events-per-second`: the cycle from its first event, by deadline. No EVENT lines: at up to 1000
    /// a second the traffic log records them instead.
    private func startEventStream() {
        guard let rate = settings.eventsPerSecond else { return }
        stopEventStream()
        eventCycle.restart()
        let period = RepeatingTimer.period(perSecond: rate)
        eventStream = RepeatingTimer.start(
            period: { [weak self] in self.map { _ in period } }, tick: { [weak self] in await self?.sendNextEvent() })
    }

    private func stopEventStream() {
        eventStream?.cancel()
        eventStream = nil
    }

    private func sendNextEvent() {
        application.notify(profile.eventCharacteristicUUID, value: eventCycle.next())
    }

    /// Sends an action's events with their pauses; stops at the first event nobody receives.
    private func play(_ action: GripAction) async {
        for step in action.steps {
            guard send(step.event) else { return }
            if step.pause > .zero { try? await Task.sleep(for: step.pause) }
        }
    }

    /// Notifies one event; prints EVENT, or ERROR when the event characteristic is not subscribed.
    private func send(_ event: GripEvent) -> Bool {
        let bytes: [UInt8]
        do {
            bytes = try profile.encoded(event: event)
        } catch {
            output.line("ERROR \(error.description)")
            return false
        }
        guard application.notify(profile.eventCharacteristicUUID, value: bytes) else {
            output.line("ERROR not subscribed: \(event.rawValue) not sent")
            return false
        }
        output.line("EVENT \(event.rawValue)")
        return true
    }

    // MARK: Console

    /// Runs one line of standard input.
    func run(_ line: String) {
        let command: GripConsoleCommand?
        do {
            command = try GripConsoleCommand.parse(line)
        } catch {
            output.line("ERROR \(error.reason)")
            return
        }
        switch command {
        case nil: return
        case .action(let action): actionSink.yield(action)
        case .battery(let percent):
            batteryPercent = percent
            let notified = application.notify(
                profile.battery.levelCharacteristicUUID, value: profile.encodedBattery(level: percent))
            logger.info("battery \(percent) %\(notified ? " (notified)" : "")")
        }
    }

    // MARK: Helpers

    /// `AA:BB:…` from `/org/bluez/hciN/dev_AA_BB_…`.
    static func address(of devicePath: String) -> String {
        let last = devicePath.split(separator: "/").last.map(String.init) ?? devicePath
        return last.hasPrefix("dev_") ? String(last.dropFirst(4)).replacingOccurrences(of: "_", with: ":") : last
    }

    /// Lower-case hex, `-` for no bytes (so the line keeps its fields).
    static func hex(_ bytes: [UInt8]) -> String { bytes.isEmpty ? "-" : bytes.hex }
}
