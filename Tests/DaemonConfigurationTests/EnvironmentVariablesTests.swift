import Bridge
import Testing

@testable import DaemonConfiguration

/// Every setting has an environment variable (issue #46, item 5), which is how a container is configured:
/// `GATT2MQTT_` and the key path in capitals, dots as underscores, read by the key's kind.
struct EnvironmentVariablesTests {
    @Test(arguments: ConfigurationKey.allCases)
    func everyKeyHasItsOwnVariableReadByItsKind(key: ConfigurationKey) throws {
        let expected = "GATT2MQTT_" + key.rawValue.uppercased().split(separator: ".").joined(separator: "_")
        #expect(key.environmentVariable == expected)
        let (text, value) = sample(key.kind)
        let settings = try Settings.environment([expected: text])
        #expect(settings[key]?.value == value, "\(expected)=\(text)")
        #expect(settings[key]?.name == expected && settings[key]?.source == .environment)
    }

    @Test func variablesTakeEffectAndSayWhereTheyComeFrom() throws {
        let loaded = try load(
            "",
            environment: [
                "GATT2MQTT_A5_SQUEEZE_NEWTONS": "25", "GATT2MQTT_CPR_RANGE_MM": "40,65",
                "GATT2MQTT_DEVICES_ALLOW": "aa:bb:cc:dd:ee:ff", "GATT2MQTT_HOMEASSISTANT_FAST_STREAMS": "true",
                "GATT2MQTT_DEVICES_ALIASES": "AA:BB:CC:DD:EE:FF=hall-belt", "GATT2MQTT_HEALTH_S": "15",
            ])
        #expect(loaded.bridge.activ5.squeeze.pressedNewtons == 25)
        #expect(loaded.bridge.cprBand.targetRange.minMillimetres == 40)
        #expect(loaded.bridge.autoConnect == .allowList(["AA:BB:CC:DD:EE:FF"]))
        #expect(loaded.bridge.homeAssistant.fastStreams)
        #expect(loaded.bridge.aliases == ["AA:BB:CC:DD:EE:FF": "hall-belt"])
        #expect(loaded.bridge.healthInterval == .seconds(15))
        #expect(loaded.description.contains("  squeeze_newtons: 25  # from GATT2MQTT_A5_SQUEEZE_NEWTONS\n"))
        #expect(loaded.description.contains("health_s: 15  # from GATT2MQTT_HEALTH_S\n"))
    }

    /// The shorter names of earlier releases still work; a key's own variable wins over them.
    @Test func legacyNamesStillWorkAndTheKeysOwnWins() throws {
        #expect(try load("", environment: ["GATT2MQTT_BROKER": "mqtt://legacy:1883"]).bridge.mqtt.host == "legacy")
        let both = try load(
            "", environment: ["GATT2MQTT_BROKER": "mqtt://legacy:1883", "GATT2MQTT_BROKER_URL": "mqtt://own:1883"])
        #expect(both.bridge.mqtt.host == "own")
        #expect(
            try load("", environment: ["GATT2MQTT_BROKER_PASSWORD": "pw", "GATT2MQTT_BROKER_USERNAME": "u"]).bridge
                .mqtt.password == "pw")
    }

    @Test func aBadValueNamesTheVariable() {
        #expect(
            loadError("", environment: ["GATT2MQTT_HEALTH_S": "soon"])?.description
                == "GATT2MQTT_HEALTH_S: must be a number, not 'soon'")
        #expect(
            loadError("", environment: ["GATT2MQTT_DEVICES_ALIASES": "hall"])?.description
                == "GATT2MQTT_DEVICES_ALIASES: must be key=value pairs separated by commas, not 'hall'")
    }
}
