import ArgumentParser
import BlueZ
import Logging

/// Options every simulated peripheral shares (`gatt2mqtt-sim --adapter hci1 <peripheral> …`).
struct GlobalOptions: ParsableArguments {
    @Option(help: "The BlueZ adapter to serve on, e.g. hci1.")
    var adapter = "hci1"

    @Option(help: "Log level on standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    @Option(help: "Write every notification sent and write received, timestamped, to this file (for the benchmark).")
    var trafficLog: String?

    @Option(name: .customLong("notification-gap-ms"), help: "Shortest gap between two notifications, in milliseconds.")
    var notificationGapMilliseconds = 5

    @Flag(
        help: """
            Register the advertisement twice, so that BlueZ takes turns between the two and the controller hears \
            it switched on every 2 s (for btvirt's virtual controllers, which report an advertiser only then).
            """)
    var repeatAdvertising = false

    func validate() throws {
        guard adapter.hasPrefix("hci"), adapter.dropFirst(3).allSatisfy(\.isNumber), adapter.count > 3 else {
            throw ValidationError("--adapter must look like hci0, hci1, …")
        }
        guard (0...1000).contains(notificationGapMilliseconds) else {
            throw ValidationError("--notification-gap-ms must be 0 to 1000")
        }
    }

    /// The gap `GattApplication` keeps between notifications.
    var notificationGap: Duration { .milliseconds(notificationGapMilliseconds) }

    /// The observer of `--traffic-log`, if one was asked for.
    func trafficObserver() throws -> GattTrafficObserver? {
        try trafficLog.map { try TrafficLog(path: $0).observer }
    }

    /// Sends swift-log output to standard error, keeping standard output for the test protocol.
    func bootstrapLogging() {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }
}

// Both types are other packages', and the simulator's `--log-level` is the only place that parses one: a wrapper type
// would only rename the level.
// swift-format-ignore: AvoidRetroactiveConformances
extension Logger.Level: @retroactive ExpressibleByArgument {}
