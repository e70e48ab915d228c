// swift-tools-version: 6.0
import PackageDescription

// Dependencies, each chosen for one job:
// - swift-argument-parser: the command lines of `gatt2mqtt` and `gatt2mqtt-sim`.
// - swift-log: the logging API every layer writes through (levels, metadata per device).
// - Yams: parsing the YAML configuration file (`gatt2mqtt --config FILE`).
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
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        // C libraries from the system, found through pkg-config.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        .systemLibrary(name: "CMosquitto", pkgConfig: "libmosquitto", providers: [.apt(["libmosquitto-dev"])]),

        // Swift layers; no C type crosses them.
        // Wakes an I/O thread from poll() (the D-Bus and MQTT loops).
        .target(name: "WakePipe"),
        .target(name: "DBus", dependencies: ["CDBus", "WakePipe", .product(name: "Logging", package: "swift-log")]),
        .target(name: "MQTT", dependencies: ["CMosquitto", "WakePipe", .product(name: "Logging", package: "swift-log")]),
        .target(name: "BlueZ", dependencies: ["DBus", .product(name: "Logging", package: "swift-log")]),
        // Pure protocol code: no I/O, nothing but Foundation.
        .target(name: "Peripherals"),
        // Which gateway of a fleet owns a device: pure, deterministic rules over the claims gateways
        // publish (docs/fleet-ownership.md); the standard library only.
        .target(name: "Fleet"),
        // Starts real processes (brokers, buses, simulators) for tests; Foundation only.
        .target(name: "TestSupport", dependencies: []),
        .target(
            name: "Bridge",
            dependencies: ["BlueZ", "Fleet", "MQTT", "Peripherals", .product(name: "Logging", package: "swift-log")]
        ),
        // The daemon's settings: YAML file < environment < command line, checked into one BridgeConfiguration.
        .target(
            name: "Configuration",
            dependencies: [
                "Bridge", "MQTT", "Peripherals", .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .executableTarget(
            name: "gatt2mqtt",
            dependencies: [
                "Bridge", "Configuration", .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "gatt2mqtt-sim",
            dependencies: [
                "BlueZ", "Peripherals",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The benchmark (BENCHMARKS.md): the test world, a D-Bus floor, an MQTT floor and the watcher.
        .executableTarget(
            name: "gatt2mqtt-bench",
            dependencies: [
                "BlueZ", "Bridge", "DBus", "MQTT", "TestSupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "DBusTests", dependencies: ["DBus", "TestSupport"]),
        .testTarget(name: "BlueZTests", dependencies: ["BlueZ"]),
        .testTarget(name: "MQTTTests", dependencies: ["MQTT", "TestSupport"]),
        .testTarget(name: "PeripheralsTests", dependencies: ["Peripherals"]),
        .testTarget(name: "BridgeTests", dependencies: ["Bridge"]),
        .testTarget(name: "FleetTests", dependencies: ["Fleet"]),
        .testTarget(name: "ConfigurationTests", dependencies: ["Configuration", "TestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["MQTT", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
