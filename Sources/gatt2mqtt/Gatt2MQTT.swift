import ArgumentParser
import Bridge
import Dispatch
import Foundation
import Logging
import MQTT
import Peripherals

/// `gatt2mqtt --broker mqtt://HOST:PORT --adapter hci0 [--gateway NAME]`
@main
struct Gatt2MQTT: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gatt2mqtt",
        abstract: "Bridges Bluetooth LE peripherals (through BlueZ) to an MQTT broker.",
        discussion: "BlueZ is reached on the system bus, or on DBUS_SYSTEM_BUS_ADDRESS when it is set.")

    @Option(help: "The broker, as mqtt://HOST:PORT or mqtts://HOST:PORT.")
    var broker = "mqtt://127.0.0.1:1883"

    @Option(help: "The BlueZ adapter to be a central on.")
    var adapter = "hci0"

    @Option(help: "This gateway's name in gatt2mqtt/<gateway>/… topics (letters, digits, '-', '_').")
    var gateway = GatewayName.default

    @Option(help: "MQTT protocol version: 5 or 3.1.1.")
    var mqttVersion = "5"

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    @Option(help: "Which devices connect without a connect request: all, none, or allowed (only --allow addresses).")
    var autoConnect = "all"

    @Option(help: "An address that may connect by itself (repeat for more); implies --auto-connect allowed.")
    var allow: [String] = []

    @Option(help: "A camera-grip profile (JSON) replacing the built-in placeholder; see docs/grip-profile.md.")
    var gripProfile: String?

    @Option(help: "Seconds between health reports on gatt2mqtt/<gateway>/health.")
    var healthSeconds = 60.0

    @Flag(help: "Print the camera-grip profile in use as JSON (a start for your own file) and exit.")
    var printGripProfile = false

    @Option(help: "Activ5: force above which a squeeze starts, in newtons.")
    var a5SqueezeNewtons = 20.0

    @Option(help: "Activ5: force below which a squeeze ends, in newtons.")
    var a5ReleaseNewtons = 5.0

    @Option(help: "Activ5: longest pause within a double squeeze, in seconds.")
    var a5DoubleSqueezeSeconds = 5.0

    @Option(help: "Activ5: keep-alive interval while evergreen is on, in seconds.")
    var a5KeepaliveSeconds = 60.0

    @Option(help: "Activ5: reconnect after a loss: auto or manual.")
    var a5Reconnect = "auto"

    func run() async throws {
        guard let level = Logger.Level(rawValue: logLevel) else { throw ValidationError("unknown log level '\(logLevel)'") }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var mqtt = try MQTTConfiguration(url: broker, clientID: "gatt2mqtt-\(gateway)")
        switch mqttVersion {
        case "5": mqtt.protocolVersion = .v5
        case "3.1.1", "311": mqtt.protocolVersion = .v311
        default: throw ValidationError("--mqtt-version must be 5 or 3.1.1")
        }
        var configuration = BridgeConfiguration(mqtt: mqtt, adapter: adapter, gateway: gateway)
        guard a5ReleaseNewtons < a5SqueezeNewtons else {
            throw ValidationError("--a5-release-newtons must be below --a5-squeeze-newtons")
        }
        guard a5DoubleSqueezeSeconds > 0, a5KeepaliveSeconds > 0 else {
            throw ValidationError("--a5-double-squeeze-seconds and --a5-keepalive-seconds must be positive")
        }
        configuration.activ5.squeeze = .init(
            pressedNewtons: a5SqueezeNewtons, releasedNewtons: a5ReleaseNewtons, windowSeconds: a5DoubleSqueezeSeconds)
        configuration.activ5.keepAliveInterval = .milliseconds(Int(a5KeepaliveSeconds * 1000))
        switch (autoConnect, allow.isEmpty) {
        case ("all", true): configuration.autoConnect = .all
        case ("none", true): configuration.autoConnect = .none
        case ("allowed", _), ("all", false): configuration.autoConnect = .allowList(Set(allow.map { $0.uppercased() }))
        default: throw ValidationError("--auto-connect must be all, none or allowed (and --allow goes with all or allowed)")
        }
        if let gripProfile {
            do {
                configuration.gripProfile = try GripProfile.load(json: Data(contentsOf: URL(fileURLWithPath: gripProfile)))
            } catch {
                throw ValidationError("--grip-profile \(gripProfile): \(error)")
            }
        }
        guard healthSeconds >= 0.1 else { throw ValidationError("--health-seconds must be at least 0.1") }
        configuration.healthInterval = .milliseconds(Int(healthSeconds * 1000))
        if printGripProfile {
            print(String(decoding: try configuration.gripProfile.json(), as: UTF8.self))
            return
        }
        switch a5Reconnect {
        case "auto": configuration.activ5.reconnect = true
        case "manual": configuration.activ5.reconnect = false
        default: throw ValidationError("--a5-reconnect must be auto or manual")
        }
        let bridge = try Bridge(configuration: configuration, logger: Logger(label: "gatt2mqtt"))
        let run = Task { try await bridge.run() }
        let signals = ShutdownSignals { run.cancel() }
        defer { signals.cancel() }
        try await run.value
    }
}

/// Turns SIGTERM and SIGINT into one cancellation, so the bridge can say `offline` and disconnect.
final class ShutdownSignals {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        sources = [SIGTERM, SIGINT].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() { sources.forEach { $0.cancel() } }
}

/// The default gateway name: the host name, reduced to the characters a topic level may safely hold.
enum GatewayName {
    static var `default`: String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "gateway"
        let cleaned = String(host.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" ? Character($0) : "_" })
        return cleaned.isEmpty ? "gateway" : cleaned
    }
}
