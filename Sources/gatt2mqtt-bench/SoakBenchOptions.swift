import ArgumentParser

/// `gatt2mqtt-bench --soak`: the soak's options (`SoakBench`), instead of the stream benchmark.
struct SoakBenchOptions: ParsableArguments {
    @Flag(
        help:
            "Run the soak instead: one gatt2mqtt for an hour, streams, commands, broker and BlueZ restarts (BENCHMARKS.md, SOAK.json)."
    )
    var soak = false

    @Option(help: "Soak: its length in minutes.")
    var soakMinutes = 60.0

    @Option(help: "Soak: Activ5s streaming.")
    var soakDevices = 10

    @Option(help: "Soak: force values per second per device.")
    var soakRate = 50

    @Option(help: "Soak: minutes between broker restarts.")
    var soakBrokerRestartMinutes = 5.0

    @Option(help: "Soak: minutes between BlueZ restarts.")
    var soakBluezRestartMinutes = 15.0

    /// The soak, its report's figures into `markdown`'s results section and SOAK.json.
    func run(markdown: String) async throws {
        guard soakMinutes >= 2, (1...50).contains(soakDevices), (1...200).contains(soakRate),
            soakBrokerRestartMinutes > 0, soakBluezRestartMinutes > 0
        else {
            throw ValidationError(
                "--soak: at least 2 minutes, 1 to 50 devices, 1 to 200 values a second, restart intervals above 0")
        }
        try await SoakBench(
            minutes: soakMinutes, devices: soakDevices, rate: soakRate, brokerRestartMinutes: soakBrokerRestartMinutes,
            bluezRestartMinutes: soakBluezRestartMinutes, markdown: markdown, json: "SOAK.json"
        ).run()
    }
}
