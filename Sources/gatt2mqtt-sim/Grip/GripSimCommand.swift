import ArgumentParser
import BlueZ
import DBus
import Foundation
import Logging
import Peripherals

/// `gatt2mqtt-sim [--adapter hciN] grip …`: a virtual Fjorden camera grip. Every wire constant comes
/// from a `GripProfile` (the built-in one is HYPOTHETICAL: the grip's format is not public).
struct GripSimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grip",
        abstract: "Simulates a Fjorden camera grip (bonding required, one host, events from a GripProfile).",
        discussion: """
            Standard output: READY grip <address> <name>, WRITE, REJECT <uuid> <hex|-> <error> <reason>, \
            BONDED <address>, REFUSED <address>, DECLINED <agent method> <device path>, EVENT <name>, ERROR <reason>. Standard input: \
            event <name>, sequence <shutter|dial_burst|flick_left|flick_right|hold_left|hold_right>, \
            dial <n>, battery <percent>.
            """)

    /// Where the device's objects live on the bus; outside /org/bluez, as BlueZ requires of applications.

    @OptionGroup var global: GlobalOptions

    @Option(help: "Grip profile JSON (GripProfile); default: the built-in HYPOTHETICAL placeholder.")
    var profile: String?

    @Option(help: "Advertised name; default: the profile's first name prefix followed by \" Grip\".")
    var name: String?

    @Option(help: "Firmware version X.Y.Z the firmware revision characteristic returns.")
    var firmware = "2.0.0"

    @Option(help: "Battery level at start, percent.")
    var battery = 85

    @Flag(
        name: .customLong("bonded-elsewhere"),
        help: "Keep the bond with another host: refuse every central's reads and subscriptions.")
    var bondedElsewhere = false

    @Flag(
        name: .customLong("refuse-pairing"),
        help: "Decline every pairing, as a grip not in pairing mode does (its agent must be the default one).")
    var refusePairing = false

    @Option(
        help: """
            Scripted events, seconds after the first subscription to the event characteristic, \
            e.g. 2:half_press,2.5:full_press,3:release,4:dial_burst (SDK event names or aliases, or sequences).
            """)
    var script: GripScript?

    @Option(
        name: .customLong("events-per-second"),
        help: """
            For the benchmark: while a central is subscribed to the event characteristic, notify events at \
            this rate (1-1000, by deadline; no EVENT lines), cycling through every SDK event the profile \
            encodes in the SDK's order, from the first at each subscription. Built-in profile: the n-th \
            event is byte ((n-1) mod 14) + 1, published on grip/<id>/event as shutterButtonDown, \
            shutterButtonReleased, shutterButtonHalfDown, dialButtonCW, dialButtonCCW, dialButtonPress, \
            dialButtonLongPress, fnButtonPress, fnButtonLongPress, zoomLeverHoldLeft, zoomLeverHoldRight, \
            zoomLeverLeft, zoomLeverRight, zoomLeverNeutral, then again (wraps every 14 events).
            """)
    var eventsPerSecond: Int?

    @Flag(
        name: .customLong("no-pairing"),
        help: """
            Serve centrals that have not bonded (the profile's pairingRequired off), e.g. a relay that does \
            not pair; a central that pairs anyway is accepted by the simulator's agent. Still one host at a time.
            """)
    var noPairing = false

    func validate() throws {
        if let eventsPerSecond {
            guard (1...1000).contains(eventsPerSecond) else {
                throw ValidationError("--events-per-second must be 1-1000")
            }
            guard script == nil else { throw ValidationError("give --events-per-second or --script, not both") }
        }
        guard GripFirmwareVersion(string: firmware) != nil else {
            throw ValidationError("--firmware must be X.Y.Z, e.g. 2.0.0")
        }
        guard (0...100).contains(battery) else { throw ValidationError("--battery must lie in 0…100") }
        if let name, name.isEmpty { throw ValidationError("--name must not be empty") }
    }

    func run() async throws {
        global.bootstrapLogging()
        let logger = Logger(label: "sim.grip")
        var gripProfile = try loadProfile()
        if noPairing { gripProfile.pairingRequired = false }
        if eventsPerSecond != nil, GripEventCycle(profile: gripProfile).events.isEmpty {
            throw ValidationError("--events-per-second: the profile encodes no event")
        }
        if gripProfile.isHypothetical { logger.notice("grip profile is HYPOTHETICAL: \(gripProfile.notes)") }
        let localName = name ?? Self.defaultName(for: gripProfile)
        if !gripProfile.matches(name: localName, serviceUUIDs: []) {
            logger.warning(
                "'\(localName)' does not start with a name prefix of the profile \(gripProfile.namePrefixes)")
        }

        var settings = GripSimulatorSettings(profile: gripProfile, firmware: GripFirmwareVersion(string: firmware)!)
        settings.batteryPercent = battery
        settings.script = script?.actions ?? []
        settings.bondedElsewhere = bondedElsewhere
        settings.eventsPerSecond = eventsPerSecond

        let runner = try PeripheralRunner(
            global: global, family: "grip", services: GripGattLayout.services(for: gripProfile), localName: localName,
            serviceUUIDs: gripProfile.advertisedServiceUUIDs)
        let output = SimulatorOutput()
        let grip = GripSimulator(
            settings: settings, connection: runner.connection, application: runner.application,
            advertisement: runner.advertisement,
            output: output, logger: logger)
        logger.info("grip '\(localName)' firmware \(firmware) on \(global.adapter)")
        try await runner.run(grip, logger: logger) {
            await grip.start()
            // A real grip accepts Just Works bonding by itself, or declines it when it is not in pairing mode.
            // bluetoothd asks the default agent on the accepting side (when its IO capability lets it ask),
            // so the simulator offers one, before it advertises; a central's own agent may take over as default.
            await BlueZClient(connection: runner.connection, logger: Logger(label: "sim.agent")).registerPairingAgent(
                path: "/org/gatt2mqtt/sim/agent", policy: refusePairing ? .refuseAll : .justWorks,
                onRefusal: { method, device in output.line("DECLINED \(method) \(device)") })
        }
    }

    /// The profile from `--profile`, or the placeholder.
    private func loadProfile() throws -> GripProfile {
        guard let profile else { return GripProfile.placeholder.normalized() }
        do {
            return try GripProfile.load(json: Data(contentsOf: URL(fileURLWithPath: profile)))
        } catch {
            throw ValidationError("--profile \(profile): \(error)")
        }
    }

    /// `<first name prefix> Grip` ("Fjorden Grip", as iOS lists a bonded grip), or `Grip`.
    static func defaultName(for profile: GripProfile) -> String {
        guard let prefix = profile.namePrefixes.first(where: { !$0.isEmpty }) else { return "Grip" }
        return prefix.hasSuffix(" ") ? prefix + "Grip" : prefix + " Grip"
    }
}
