// swift-tools-version: 6.1
import PackageDescription

// Dependencies, each chosen for one job:
// - swift-argument-parser: the command lines of `gatt2mqtt` and `gatt2mqtt-sim`.
// - swift-log: the logging API every layer writes through (levels, metadata per device).
// - Hummingbird with its WebSocket module: the optional live page (`--http`), an async HTTP server on
//   SwiftNIO that upgrades one route to a WebSocket. Its default traits are off: they would pull in
//   swift-configuration and full Foundation. (swift-configuration, in the graph even so, names a target
//   Configuration: ours is DaemonConfiguration.)
// - swift-metrics and swift-prometheus: the bridge records through swift-metrics' API (a no-op unless a
//   backend is bootstrapped); with `--http`, swift-prometheus is that backend and renders `/metrics`.
// - The VersionStamp plugin (Plugins/): `Gatt2MQTTVersion.current` from the VERSION file, for Bridge and all above it.
// - The ShippedDeclarations plugin (Plugins/): the standard profiles' declarations (declarations/*.yaml) compiled
//   into DaemonConfiguration, whatever installs the daemon.
// - hummingbird-auth, its HummingbirdBcrypt product only (OpenBSD's bcrypt in C, no other dependency of its
//   own): the live page's password may be given as a bcrypt hash (`http.password_hash_file`), so that the file
//   on disk does not give it away. The package graph gains swift-extras-base64; swift-crypto was in it already.
// - swift-collections, its DequeModule only: the command deduplicator forgets its oldest identity in O(1)
//   (SwiftNIO already builds on the package).
// - swift-service-lifecycle: the daemon runs as a group of services (bridge, health report, live page)
//   with one graceful shutdown on SIGTERM/SIGINT, stopped in reverse order. (Hummingbird already
//   builds on it.)
let package = Package(
    name: "gatt2mqtt",
    products: [
        .executable(name: "gatt2mqtt", targets: ["gatt2mqtt"]),
        .executable(name: "gatt2mqtt-sim", targets: ["gatt2mqtt-sim"]),
        .executable(name: "gatt2mqtt-bench", targets: ["gatt2mqtt-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // C libraries from the system, found through pkg-config.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // epoll, which Swift's Glibc module does not export: the D-Bus thread's set of notification sockets.
        .systemLibrary(name: "CEpoll"),
        // pipe2 and accept4, which Swift's Glibc module does not export: descriptors close-on-exec from the start.
        .systemLibrary(name: "CCloseOnExec"),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),

        // Swift layers; no C type crosses them.
        // The D-Bus and MQTT I/O threads: starting one (a named pthread), and waking it from poll().
        .target(name: "WakePipe", dependencies: ["CCloseOnExec"]),
        // The project's lock: the standard library's Mutex, annotated for ThreadSanitizer in scripts/tsan's builds.
        .target(name: "Locks"),
        .target(
            name: "DBus",
            dependencies: ["CDBus", "CEpoll", "Locks", "WakePipe", .product(name: "Logging", package: "swift-log")]),
        .target(
            name: "MQTT",
            dependencies: ["CMosquitto", "Locks", "WakePipe", .product(name: "Logging", package: "swift-log")]),
        .target(name: "BlueZ", dependencies: ["DBus", "Locks", .product(name: "Logging", package: "swift-log")]),
        // Pure protocol code: no I/O, nothing but FoundationEssentials (the daemon maps no Foundation or ICU).
        .target(name: "Peripherals"),
        // Which gateway of a fleet owns a device: pure, deterministic rules over the claims gateways
        // publish (docs/fleet-ownership.md); the standard library only.
        .target(name: "Fleet", swiftSettings: optimizedInTests),
        // Starts real processes (brokers, buses, simulators) for tests, and a seeded generator for property
        // tests; Foundation, the project's lock, and pipe2 and accept4 (close-on-exec from the start) only.
        .target(name: "TestSupport", dependencies: ["CCloseOnExec", "Locks"]),
        .target(
            name: "Bridge",
            dependencies: [
                "BlueZ", "DBus", "Fleet", "Locks", "MQTT", "Peripherals", "WakePipe",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            plugins: ["VersionStamp"]
        ),
        // The live page and `/metrics` (`--http`): an HTTP server with its own MQTT client, so that the page
        // shows the whole fleet on the broker and its commands take the same path as anyone's.
        .target(
            name: "WebUI",
            dependencies: [
                "Bridge", "Locks", "MQTT", .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // Below Hummingbird: a handler that answers malformed requests (MalformedRequestGuard).
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
                // NIO's blocking pool, where bcrypt runs (BcryptPassword), and the page's one event loop (LivePageServer).
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            resources: [.embedInCode("Resources/live.html")]
        ),
        // The daemon's settings: YAML file < environment < command line, checked into one BridgeConfiguration.
        // Its YAML reader (YAML/) takes the part of YAML a configuration file needs and names what it rejects;
        // Yams, used before, brought full Foundation and ICU into the daemon, which otherwise runs on
        // FoundationEssentials alone.
        .target(
            name: "DaemonConfiguration",
            dependencies: [
                "Bridge", "MQTT", "Peripherals", "WebUI",
                .product(name: "Logging", package: "swift-log"),
            ],
            // The standard profiles' declarations (declarations/*.yaml), compiled in.
            plugins: ["ShippedDeclarations"]
        ),

        // The daemon's log lines: with their priority when standard error is the journal, one level for all
        // loggers that SIGHUP can change, and a copy of them for the gateway's log topic.
        .target(name: "DaemonLogging", dependencies: ["Locks", .product(name: "Logging", package: "swift-log")]),

        .executableTarget(
            name: "gatt2mqtt",
            dependencies: [
                "Bridge", "DaemonConfiguration", "DaemonLogging", "WebUI",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // With --static-swift-stdlib, swiftc exports every symbol of the executable (-export-dynamic), so
            // nothing in it is dead to --gc-sections and the dynamic linker reads a 25 000-symbol table at start.
            // Nothing loads into the daemon, so it exports nothing: 2.4 MB less code, about 1 MB less RSS idle
            // (BENCHMARKS.md, "Where the memory goes").
            linkerSettings: [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(configuration: .release))]
        ),
        .executableTarget(
            name: "gatt2mqtt-sim",
            dependencies: [
                "BlueZ", "Locks", "Peripherals",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The benchmark (BENCHMARKS.md): the test world, a D-Bus floor, an MQTT floor and the watcher.
        .executableTarget(
            name: "gatt2mqtt-bench",
            dependencies: [
                "BlueZ", "Bridge", "DBus", "Fleet", "Locks", "MQTT", "Peripherals", "TestSupport", "WakePipe",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                // The fleet-scale benchmark runs whole gateways, each a group of services.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),

        .plugin(name: "VersionStamp", capability: .buildTool()),
        .plugin(name: "ShippedDeclarations", capability: .buildTool()),

        .testTarget(name: "DBusTests", dependencies: ["CDBus", "DBus", "Locks", "TestSupport", "WakePipe"]),
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ", "DBus", "Locks", "TestSupport"]),
        .testTarget(name: "MQTTTests", dependencies: ["CMosquitto", "MQTT", "DBus", "TestSupport"]),
        .testTarget(name: "PeripheralsTests", dependencies: ["Peripherals", "TestSupport"]),
        .testTarget(
            name: "BridgeTests",
            dependencies: [
                "BlueZ", "Bridge", "DaemonLogging", "DBus", "Locks", "MQTT", "Peripherals", "TestSupport", "WakePipe",
                // The YAML reader, for the heart rate declaration compared with the written family.
                "DaemonConfiguration",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            // Read by path (#filePath), as the gateway reads a file of devices.d.
            exclude: ["Fixtures"]),
        .testTarget(name: "FleetTests", dependencies: ["Fleet", "TestSupport"], swiftSettings: optimizedInTests),
        .testTarget(name: "WebUITests", dependencies: ["WebUI", "Bridge", "TestSupport"]),
        .testTarget(name: "DaemonConfigurationTests", dependencies: ["DaemonConfiguration", "TestSupport", "WebUI"]),
        .testTarget(name: "DaemonLoggingTests", dependencies: ["DaemonLogging", "Locks"]),
        .testTarget(name: "IntegrationTests", dependencies: ["Locks", "MQTT", "TestSupport"]),
        // The benchmark's pure parts (the fleet-scale topology, traffic and ownership replay).
        .testTarget(name: "BenchTests", dependencies: ["gatt2mqtt-bench"]),
    ],
    swiftLanguageModes: [.v6]
)

/// The fleet's rules and their simulation, optimised in the debug build the tests run: 200 simulated fleets of 15
/// minutes each (FleetPropertyTests) are pure CPU, 54 s of one core unoptimised, 9 s optimised; they were the
/// in-memory tier's longest wait. Both are pure code, so little is lost for a debugger.
var optimizedInTests: [SwiftSetting] { [.unsafeFlags(["-O"], .when(configuration: .debug))] }
