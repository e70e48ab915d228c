import Testing

@testable import DaemonConfiguration

/// `log_level_mqtt`: the level of `gatt2mqtt/<gateway>/log`, beside `log_level`, from the file, the environment or a
/// flag like every setting, and `off`.
struct LogLevelMQTTSettingsTests {
    @Test func itIsWarningByDefault() throws {
        let loaded = try load("")
        #expect(loaded.logLevelMQTT == .warning)
        #expect(loaded.description.contains("\nlog_level: info\nlog_level_mqtt: warning\n"), "--print-config shows it")
    }

    @Test func theFileTheEnvironmentAndTheFlagSetItInThatOrder() throws {
        let file = "log_level_mqtt: error"
        #expect(try load(file).logLevelMQTT == .error)
        #expect(try load("log_level_mqtt: Debug").logLevelMQTT == .debug, "in any case, as log_level")
        let environment = ["GATT2MQTT_LOG_LEVEL_MQTT": "info"]
        #expect(try load(file, environment: environment).logLevelMQTT == .info)
        let flagged = try load(file, environment: environment, flags: flags("--log-level-mqtt", "critical"))
        #expect(flagged.logLevelMQTT == .critical)
        #expect(flagged.logLevel == .info, "the journal's level is another setting")
    }

    @Test func offPublishesNoLine() throws {
        let loaded = try load("log_level_mqtt: off")
        #expect(loaded.logLevelMQTT == nil)
        #expect(loaded.description.contains("\nlog_level_mqtt: off\n"))
        #expect(try load("", flags: flags("--log-level-mqtt", "OFF")).logLevelMQTT == nil)
        // What --print-config printed loads again as the same.
        #expect(try load(loaded.description).logLevelMQTT == nil)
    }

    @Test func aBadValueNamesTheSettingAsItWasGiven() throws {
        let levels = "must be trace, debug, info, notice, warning, error, critical or off"
        let fromFile = try #require(loadError("log_level_mqtt: loud"))
        #expect(fromFile.description == "log_level_mqtt: \(levels), not 'loud'")
        let fromEnvironment = try #require(loadError("", environment: ["GATT2MQTT_LOG_LEVEL_MQTT": "none"]))
        #expect(fromEnvironment.description == "GATT2MQTT_LOG_LEVEL_MQTT: \(levels), not 'none'")
        let fromFlag = try #require(loadError("", flags: flags("--log-level-mqtt", "false")))
        #expect(fromFlag.description == "--log-level-mqtt: \(levels), not 'false'")
    }
}
