import Bridge
import Foundation
import Testing

@testable import DaemonConfiguration

struct ConfigurationPrecedenceTests {
    let file = """
        broker: {url: 'mqtt://file-broker:1001', username: file-user}
        gateway: {name: file-gw}
        adapter: hci1
        log_level: debug
        a5: {squeeze_newtons: 30, release_newtons: 10}
        """

    @Test func theFileOverridesTheDefaults() throws {
        let loaded = try load(file)
        #expect(loaded.bridge.mqtt.host == "file-broker")
        #expect(loaded.bridge.mqtt.username == "file-user")
        #expect(loaded.bridge.gateway == "file-gw")
        #expect(loaded.bridge.mqtt.clientID == "gatt2mqtt-file-gw")
        #expect(loaded.bridge.adapters == ["hci1"])
        #expect(loaded.logLevel == .debug)
    }

    @Test func theEnvironmentOverridesTheFile() throws {
        let loaded = try load(
            file,
            environment: [
                "GATT2MQTT_BROKER": "mqtt://env-broker:1002", "GATT2MQTT_ADAPTER": "hci2",
                "GATT2MQTT_GATEWAY": "env-gw",
                "GATT2MQTT_LOG_LEVEL": "warning", "GATT2MQTT_MQTT_USERNAME": "env-user", "UNRELATED": "x",
            ])
        #expect(loaded.bridge.mqtt.host == "env-broker")
        #expect(loaded.bridge.mqtt.port == 1002)
        #expect(loaded.bridge.adapters == ["hci2"])
        #expect(loaded.bridge.gateway == "env-gw")
        #expect(loaded.bridge.mqtt.clientID == "gatt2mqtt-env-gw")
        #expect(loaded.logLevel == .warning)
        #expect(loaded.bridge.mqtt.username == "env-user")
    }

    @Test func flagsOverrideTheEnvironmentAndTheFile() throws {
        let loaded = try load(
            file,
            environment: ["GATT2MQTT_BROKER": "mqtt://env-broker:1002", "GATT2MQTT_GATEWAY": "env-gw"],
            flags: flags(
                "--broker", "mqtt://flag-broker:1003", "--gateway", "flag-gw", "--log-level", "error", "--mqtt-version",
                "3.1.1", "--a5-squeeze-newtons", "40", "--a5-double-squeeze-seconds=3", "--a5-keepalive-seconds", "120",
                "--a5-reconnect", "manual"))
        #expect(loaded.bridge.mqtt.host == "flag-broker")
        #expect(loaded.bridge.gateway == "flag-gw")
        #expect(loaded.logLevel == .error)
        #expect(loaded.bridge.mqtt.protocolVersion == .v311)
        #expect(loaded.bridge.activ5.squeeze == .init(pressedNewtons: 40, releasedNewtons: 10, windowSeconds: 3))
        #expect(loaded.bridge.activ5.keepAliveInterval == .seconds(120))
        #expect(!loaded.bridge.activ5.reconnect)
        // Untouched by the flags: from the file.
        #expect(loaded.bridge.adapters == ["hci1"])
        #expect(loaded.bridge.mqtt.username == "file-user")
    }

    @Test func emptyEnvironmentVariablesAreUnset() throws {
        let loaded = try load(file, environment: ["GATT2MQTT_BROKER": "", "GATT2MQTT_ADAPTER": ""])
        #expect(loaded.bridge.mqtt.host == "file-broker")
        #expect(loaded.bridge.adapters == ["hci1"])
    }

    @Test func errorsNameTheSourceThatWon() throws {
        let fromEnvironment = try #require(loadError(file, environment: ["GATT2MQTT_LOG_LEVEL": "loud"]))
        #expect(fromEnvironment.key == "GATT2MQTT_LOG_LEVEL")
        let fromFlag = try #require(loadError(file, flags: flags("--a5-squeeze-newtons", "8")))
        #expect(fromFlag.description == "--a5-squeeze-newtons: must be a number greater than a5.release_newtons (10)")
        let againstFlag = try #require(
            loadError("a5: {squeeze_newtons: 8}", flags: flags("--a5-release-newtons=9")))
        #expect(againstFlag.description == "a5.squeeze_newtons: must be a number greater than --a5-release-newtons (9)")
        let broker = try #require(loadError("", environment: ["GATT2MQTT_BROKER": "tcp://x"]))
        #expect(broker.key == "GATT2MQTT_BROKER")
        let adapter = try #require(loadError("", flags: flags("--adapter", "")))
        #expect(adapter.key == "--adapter")
    }

    /// `adapters` lists several; `--adapter` repeated beats the file's list, and the environment's
    /// `GATT2MQTT_ADAPTER` may list several too (comma-separated); the slots come from `adapter_slots`.
    @Test func severalAdaptersComeFromTheStrongestSource() throws {
        let listed = "adapters: [hci0, hci2]\nadapter_slots: 3"
        let fromFile = try load(listed)
        #expect(fromFile.bridge.adapters == ["hci0", "hci2"])
        #expect(fromFile.bridge.adapterSlots == 3)
        #expect(try load("").bridge.adapterSlots == 5)
        #expect(try load(listed, environment: ["GATT2MQTT_ADAPTER": "hci3, hci4"]).bridge.adapters == ["hci3", "hci4"])
        let flagged = try load(
            listed, environment: ["GATT2MQTT_ADAPTER": "hci3"],
            flags: flags("--adapter", "hci5", "--adapter", "hci1", "--adapter-slots", "1"))
        #expect(flagged.bridge.adapters == ["hci5", "hci1"])
        #expect(flagged.bridge.adapterSlots == 1)
        let empty = try #require(loadError("", environment: ["GATT2MQTT_ADAPTER": "hci0,"]))
        #expect(empty.description == "GATT2MQTT_ADAPTER: must be a BlueZ adapter name such as hci0, not ''")
    }

    /// One GATT operation's timeout: 5 s unless the file, the environment or the flag says otherwise, within 1 to 30.
    @Test func theGATTOperationTimeoutComesFromTheStrongestSource() throws {
        #expect(try load("").bridge.gattOperationTimeout == .seconds(5))
        let file = "bluez: {operation_timeout_s: 12.5}"
        #expect(try load(file).bridge.gattOperationTimeout == .milliseconds(12_500))
        let environment = ["GATT2MQTT_BLUEZ_OPERATION_TIMEOUT_S": "10"]
        #expect(try load(file, environment: environment).bridge.gattOperationTimeout == .seconds(10))
        let flagged = try load(
            file, environment: environment, flags: flags("--bluez-operation-timeout-seconds", "2"))
        #expect(flagged.bridge.gattOperationTimeout == .seconds(2))
        let tooLong = try #require(loadError("bluez: {operation_timeout_s: 31}"))
        #expect(tooLong.key == "bluez.operation_timeout_s")
    }

    /// The fleet joins by itself when others are online (`auto`, the default); `true` always, `false` never.
    /// `--fleet` and `--no-fleet` override the file, whose numbers still count.
    @Test func theFleetJoinsWhenOthersAreOnlineUnlessToldOtherwise() throws {
        let standard = try #require(try load("").bridge.fleet)
        #expect(standard.joining == .whenOthersOnline && !standard.incarnationFileChosen)
        #expect(try load("fleet: {enabled: auto}").bridge.fleet == FleetOptions())
        let file = "fleet: {enabled: false, refresh_s: 2, incarnation_file: /tmp/g2m-incarnation}"
        #expect(try load(file).bridge.fleet == nil)
        let enabled = try #require(try load(file, flags: flags("--fleet")).bridge.fleet)
        #expect(enabled.joining == .always)
        #expect(enabled.refreshInterval == .seconds(2))
        #expect(enabled.incarnationFile == "/tmp/g2m-incarnation" && enabled.incarnationFileChosen)
        #expect(try load("fleet: {enabled: true}", flags: flags("--no-fleet")).bridge.fleet == nil)
        // The default path written out is still the default: under auto the clock may stand in for it.
        let written = try #require(
            try load("fleet: {incarnation_file: \(FleetOptions.defaultIncarnationFile)}").bridge.fleet)
        #expect(!written.incarnationFileChosen)
    }

    /// The incarnation is kept in the state directory unless a path is given: a gateway with a state directory of its
    /// own never shares another's counter (nor writes the machine's /var/lib/gatt2mqtt).
    @Test func theIncarnationLivesInTheStateDirectory() throws {
        let own = try #require(try load("state_directory: /srv/g2m").bridge.fleet)
        #expect(own.incarnationFile == "/srv/g2m/fleet-incarnation" && !own.incarnationFileChosen)
        let environment = try #require(
            try load("", environment: ["GATT2MQTT_STATE_DIRECTORY": "/tmp/gw-b"]).bridge.fleet)
        #expect(environment.incarnationFile == "/tmp/gw-b/fleet-incarnation")
        let given = try #require(
            try load("state_directory: /srv/g2m\nfleet: {incarnation_file: /etc/g2m-incarnation}").bridge.fleet)
        #expect(given.incarnationFile == "/etc/g2m-incarnation" && given.incarnationFileChosen)
    }

    @Test func theOldCommandLineStillWorks() throws {
        let loaded = try load(
            "",
            flags: flags("--broker", "mqtt://10.0.0.5:1884", "--adapter", "hci0", "--gateway", "NAME"))
        #expect(loaded.bridge.mqtt.host == "10.0.0.5")
        #expect(loaded.bridge.mqtt.port == 1884)
        #expect(loaded.bridge.gateway == "NAME")
        #expect(loaded.bridge.mqtt.clientID == "gatt2mqtt-NAME")
    }

    @Test func theMQTTVersionFlagTakesTheOldSpelling() throws {
        #expect(try load("", flags: flags("--mqtt-version", "311")).bridge.mqtt.protocolVersion == .v311)
        let error = try #require(loadError("", flags: flags("--mqtt-version", "4")))
        #expect(error.description == "--mqtt-version: must be 5 or 3.1.1, not '4'")
    }

    // MARK: - Auto-connect: `allow` implies `allowed` unless a higher source sets `auto_connect`.

    @Test func allowAloneMeansAllowed() throws {
        let fromFlags = try load("", flags: flags("--allow", "aa:bb:cc:dd:ee:ff"))
        #expect(fromFlags.bridge.autoConnect == .allowList(["AA:BB:CC:DD:EE:FF"]))
        let fromFile = try load("devices: {allow: ['aa:bb:cc:dd:ee:ff']}")
        #expect(fromFile.bridge.autoConnect == .allowList(["AA:BB:CC:DD:EE:FF"]))
    }

    @Test func allWithAllowOfTheSameSourceMeansAllowed() throws {
        // As the flags always behaved: `--auto-connect all --allow X` allows only X.
        let loaded = try load(
            "",
            flags: flags("--auto-connect", "all", "--allow", "AA:BB:CC:DD:EE:FF"))
        #expect(loaded.bridge.autoConnect == .allowList(["AA:BB:CC:DD:EE:FF"]))
    }

    @Test func aHigherAutoConnectOverridesTheFilesAllowList() throws {
        let yaml = "devices: {auto_connect: allowed, allow: ['AA:BB:CC:DD:EE:FF']}"
        #expect(try load(yaml, flags: flags("--auto-connect", "all")).bridge.autoConnect == .all)
        #expect(try load(yaml, flags: flags("--auto-connect", "none")).bridge.autoConnect == .none)
    }

    @Test func aHigherAllowListOverridesTheFilesAutoConnect() throws {
        let loaded = try load("devices: {auto_connect: none}", flags: flags("--allow", "AA:BB:CC:DD:EE:01"))
        #expect(loaded.bridge.autoConnect == .allowList(["AA:BB:CC:DD:EE:01"]))
        let replaced = try load(
            "devices: {allow: ['AA:BB:CC:DD:EE:FF']}", flags: flags("--allow", "AA:BB:CC:DD:EE:01"))
        #expect(replaced.bridge.autoConnect == .allowList(["AA:BB:CC:DD:EE:01"]))
    }

    @Test func noneWithAllowOnTheCommandLineIsAnError() throws {
        let error = try #require(
            loadError(
                "",
                flags: flags("--auto-connect", "none", "--allow", "AA:BB:CC:DD:EE:FF")))
        #expect(error.description == "--allow: lists addresses, but --auto-connect is none (use allowed)")
    }

    @Test func allowedWithoutAddressesAllowsNone() throws {
        #expect(try load("devices: {auto_connect: allowed}").bridge.autoConnect == .allowList([]))
    }

    // MARK: - The file: `--config` over `GATT2MQTT_CONFIG`.

    @Test func theConfigFlagBeatsTheVariable() throws {
        let folder = try TemporaryFolder()
        let flagFile = try folder.write("flag.yaml", "adapter: hci5")
        let variableFile = try folder.write("variable.yaml", "adapter: hci6")
        let environment = withOwnStateDirectory(["GATT2MQTT_CONFIG": variableFile], in: folder)
        let both = try ConfigurationLoader.load(
            commandLine: flags { $0.configFile = flagFile }, environment: environment, hostName: "h")
        #expect(both.bridge.adapters == ["hci5"])
        #expect(both.file == flagFile)
        let variableOnly = try ConfigurationLoader.load(environment: environment, hostName: "h")
        #expect(variableOnly.bridge.adapters == ["hci6"])
        #expect(variableOnly.file == variableFile)
        let none = try ConfigurationLoader.load(environment: withOwnStateDirectory(in: folder), hostName: "h")
        #expect(none.file == nil)
        #expect(none.bridge.adapters == ["hci0"])
    }

    @Test func aMissingConfigFileIsNamed() throws {
        do {
            _ = try ConfigurationLoader.load(
                commandLine: flags { $0.configFile = "/no/gatt2mqtt.yaml" }, environment: [:])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "--config: cannot read /no/gatt2mqtt.yaml: no such file")
        }
        do {
            _ = try ConfigurationLoader.load(environment: ["GATT2MQTT_CONFIG": "/no/g.yaml"])
            Issue.record("expected an error")
        } catch {
            #expect(error.key == "GATT2MQTT_CONFIG")
        }
    }

    @Test func anErrorInTheFileNamesTheKey() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("g.yaml", "a5:\n  squeeze_newtons: 1\n")
        do {
            _ = try ConfigurationLoader.load(
                commandLine: flags { $0.configFile = file }, environment: withOwnStateDirectory(in: folder))
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "a5.squeeze_newtons: must be a number greater than a5.release_newtons (5)")
        }
    }
}
