import Bridge
import Testing

@testable import DaemonConfiguration

/// `devices.names`, `devices.entities` and `devices.streaming` (issue #58, item 2): what is chosen for one device, each
/// a map keyed by address as `devices.aliases` is, checked as the file is wherever it comes from.
struct DeviceOptionsConfigurationTests {
    let file = """
        devices:
          names: {"aa:bb:cc:dd:ee:01": Front belt, "AA:BB:CC:DD:EE:02": "Trainer: Anna"}
          entities: {"AA:BB:CC:DD:EE:01/heading": enabled, "AA:BB:CC:DD:EE:01/battery": hidden, "AA:BB:CC:DD:EE:03/rssi": disabled}
          streaming: {"AA:BB:CC:DD:EE:02": "off", "AA:BB:CC:DD:EE:04": "on"}
        """

    @Test func eachDevicesOptionsComeFromTheirMaps() throws {
        let options = try load(file).bridge.deviceOptions
        #expect(
            options == [
                "AA:BB:CC:DD:EE:01": DeviceOptions(
                    name: "Front belt", entities: ["heading": .enabled, "battery": .hidden]),
                "AA:BB:CC:DD:EE:02": DeviceOptions(name: "Trainer: Anna", streaming: false),
                "AA:BB:CC:DD:EE:03": DeviceOptions(entities: ["rssi": .disabled]),
            ],
            "a device whose options are the standard ones (streaming on) has no entry")
        #expect(try load("").bridge.deviceOptions == [:])
    }

    /// As `devices.aliases`: `ADDRESS=value, …` in a variable or a flag, which replaces the file's whole map.
    @Test func theEnvironmentAndFlagsGiveThemAsPairs() throws {
        let fromEnvironment = try load(
            file,
            environment: [
                "GATT2MQTT_DEVICES_NAMES": "AA:BB:CC:DD:EE:05=Hall",
                "GATT2MQTT_DEVICES_ENTITIES": "AA:BB:CC:DD:EE:05/last_seen=hidden",
            ]
        ).bridge.deviceOptions
        #expect(fromEnvironment["AA:BB:CC:DD:EE:05"] == DeviceOptions(name: "Hall", entities: ["last_seen": .hidden]))
        #expect(fromEnvironment["AA:BB:CC:DD:EE:01"] == nil, "the variables replace the file's names and entities")
        #expect(fromEnvironment["AA:BB:CC:DD:EE:02"] == DeviceOptions(streaming: false), "its streaming is the file's")
        let flagged = try load(file, flags: flags("--devices-streaming", "AA:BB:CC:DD:EE:06=off")).bridge
        #expect(flagged.deviceOptions["AA:BB:CC:DD:EE:06"] == DeviceOptions(streaming: false))
        #expect(flagged.deviceOptions["AA:BB:CC:DD:EE:02"]?.streaming == true)
    }

    /// Every refusal names the entry as written and says what it must be; nothing is repeated that could carry a
    /// control character into the log.
    @Test func aWrongEntryIsRefusedByItsName() throws {
        let cases: [(String, String, String)] = [
            (
                #"devices: {names: {"AA:BB:CC:DD:EE": Hall}}"#, "devices.names.AA:BB:CC:DD:EE",
                "'AA:BB:CC:DD:EE' is not a Bluetooth address (AA:BB:CC:DD:EE:FF)"
            ),
            (
                #"devices: {names: {"AA:BB:CC:DD:EE:01": "\tbell"}}"#, "devices.names.AA:BB:CC:DD:EE:01",
                "must be 1 to 64 characters, none a control character (it has 5)"
            ),
            (
                #"devices: {names: {"AA:BB:CC:DD:EE:01": Hall, "aa:bb:cc:dd:ee:01": Desk}}"#,
                "devices.names.aa:bb:cc:dd:ee:01", "AA:BB:CC:DD:EE:01 is given twice"
            ),
            (
                #"devices: {entities: {"AA:BB:CC:DD:EE:01": hidden}}"#, "devices.entities.AA:BB:CC:DD:EE:01",
                "'AA:BB:CC:DD:EE:01' is not a Bluetooth address and an entity (AA:BB:CC:DD:EE:FF/battery)"
            ),
            (
                #"devices: {entities: {"AA:BB:CC:DD:EE:01/battery": shown}}"#,
                "devices.entities.AA:BB:CC:DD:EE:01/battery", "must be enabled, disabled or hidden, not 'shown'"
            ),
            (
                #"devices: {streaming: {"AA:BB:CC:DD:EE:01": "false"}}"#, "devices.streaming.AA:BB:CC:DD:EE:01",
                "must be on or off, not 'false'"
            ),
        ]
        for (yaml, key, message) in cases {
            let error = try #require(loadError(yaml), "\(yaml)")
            #expect(error.key == key, "\(yaml)")
            #expect(error.message == message, "\(yaml)")
        }
        let tooLong = try #require(
            loadError(#"devices: {names: {"AA:BB:CC:DD:EE:01": \#(String(repeating: "x", count: 65))}}"#))
        #expect(tooLong.message == "must be 1 to 64 characters, none a control character (it has 65)")
    }

    /// An entity is named as the families' Home Assistant models name it: any family's, every device's diagnostics,
    /// the owner a fleet adds; a device trigger is no entity.
    @Test func onlyTheEntitiesADeviceHasMayBeNamed() throws {
        for object in ["heading", "force", "angle", "heart_rate", "battery", "rssi", "last_seen", "owner"] {
            #expect(throws: Never.self, "\(object)") {
                try load(#"devices: {entities: {"AA:BB:CC:DD:EE:01/\#(object)": hidden}}"#)
            }
        }
        let unknown = try #require(loadError(#"devices: {entities: {"AA:BB:CC:DD:EE:01/headng": hidden}}"#))
        #expect(unknown.message.hasPrefix("'headng' is no entity a device has ("))
        #expect(unknown.message.contains("heading"))
    }

    /// `info` and `--print-config` show them as they were given, in the same three maps.
    @Test func theSettingsInEffectShowThem() throws {
        let devices = try devicesInEffect(file)
        #expect(
            devices["names"]
                == .object(["AA:BB:CC:DD:EE:01": .string("Front belt"), "AA:BB:CC:DD:EE:02": .string("Trainer: Anna")]))
        #expect(
            devices["entities"]
                == .object([
                    "AA:BB:CC:DD:EE:01/heading": .string("enabled"), "AA:BB:CC:DD:EE:01/battery": .string("hidden"),
                    "AA:BB:CC:DD:EE:03/rssi": .string("disabled"),
                ]))
        #expect(devices["streaming"] == .object(["AA:BB:CC:DD:EE:02": .string("off")]))
    }
}
