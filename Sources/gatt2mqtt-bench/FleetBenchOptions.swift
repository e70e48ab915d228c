import ArgumentParser

/// `gatt2mqtt-bench --fleet`: the fleet benchmark's options (`FleetBench`), instead of the stream benchmark.
struct FleetBenchOptions: ParsableArguments {
    @Flag(
        help:
            "Run the fleet benchmark instead (three gateways, three belts; docs/fleet-benchmark.md, FLEET-BENCHMARK.json)."
    )
    var fleet = false

    @Option(help: "Fleet: the gateways' claim interval R, in seconds.")
    var fleetRefresh = 1.0

    @Option(help: "Fleet: seconds of noise at each σ (every belt at once, each at its own mean gap).")
    var fleetNoiseSeconds = 300.0

    func run() async throws {
        try await FleetBench(
            refreshSeconds: fleetRefresh, noiseSeconds: fleetNoiseSeconds, markdown: "docs/fleet-benchmark.md",
            json: "FLEET-BENCHMARK.json"
        ).run()
    }
}

/// `gatt2mqtt-bench --fleet-scale`: the fleet-scale benchmark's options (`FleetScaleBench`).
struct FleetScaleBenchOptions: ParsableArguments {
    @Flag(
        help:
            "Run the fleet-scale benchmark instead (3, 10 and 50 gateways in memory on real brokers; docs/fleet-benchmark.md, FLEET-SCALE-BENCHMARK.json)."
    )
    var fleetScale = false

    @Option(help: "Fleet scale: fleet sizes with each device heard by three gateways, comma-separated.")
    var fleetScaleSizes = "3,10,50"

    @Option(help: "Fleet scale: fleet sizes with every device heard by every gateway, comma-separated, or none.")
    var fleetScaleEveryone = "10"

    @Option(help: "Fleet scale: fleet sizes run on the three-node RabbitMQ cluster, comma-separated, or none.")
    var fleetScaleRabbitmq = "3,10"

    func run() async throws {
        func sizes(_ text: String, _ option: String) throws -> [Int] {
            text == "none" ? [] : try BenchCommand.numbers(text, option)
        }
        try await FleetScaleBench(
            sizes: try sizes(fleetScaleSizes, "--fleet-scale-sizes"),
            everyoneSizes: try sizes(fleetScaleEveryone, "--fleet-scale-everyone"),
            rabbitMQSizes: try sizes(fleetScaleRabbitmq, "--fleet-scale-rabbitmq"),
            markdown: "docs/fleet-benchmark.md", json: "FLEET-SCALE-BENCHMARK.json"
        ).run()
    }
}
