import ArgumentParser
import Logging

/// Options every simulated peripheral shares (`gatt2mqtt-sim --adapter hci1 <peripheral> …`).
struct GlobalOptions: ParsableArguments {
    @Option(help: "The BlueZ adapter to serve on, e.g. hci1.")
    var adapter = "hci1"

    @Option(help: "Log level on standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .info

    func validate() throws {
        guard adapter.hasPrefix("hci"), adapter.dropFirst(3).allSatisfy(\.isNumber), adapter.count > 3 else {
            throw ValidationError("--adapter must look like hci0, hci1, …")
        }
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

extension Logger.Level: @retroactive ExpressibleByArgument {}
