/// The device families the gateway serves: adding one is a line here, the rest lives in its folders
/// (`Peripherals/<Family>`, `Bridge/<Family>`, `gatt2mqtt-sim/<Family>`) and in a line of the simulator's
/// subcommand list. Everything that goes through the families reads this list: the topics' families
/// (`DeviceFamily.allCases`), the benchmark's streams (`FamilyStream.all`), the tests' drivers and devices in memory
/// (`InMemoryDevices.of`) and the fuzzed command parsers (fuzz/BridgeCommandsFuzz.swift).
enum FamilyRegistry {
    static let drivers: [any WrittenFamily.Type] = [
        BeltDriver.self, Activ5Driver.self, CPRBandDriver.self, GripDriver.self, HeartRateDriver.self,
    ]
}
