import MQTT

@testable import Bridge

/// Every family's driver with default options, as the tests use them: read from the registry, so that a new family
/// is under every test that goes through the families.
enum FamilyDrivers {
    static let all: [any FamilyDriver] = FamilyRegistry.drivers.map {
        $0.init(
            configuration: BridgeConfiguration(
                mqtt: MQTTConfiguration(host: "test"), adapters: ["hci0"], gateway: "test"))
    }

    static func of(_ family: DeviceFamily) -> any FamilyDriver { all.first { $0.family == family }! }
}
