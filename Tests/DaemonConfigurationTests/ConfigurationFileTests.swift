import Bridge
import Foundation
import MQTT
import Peripherals
import TestSupport
import Testing

@testable import DaemonConfiguration

struct ConfigurationFileTests {
    @Test func anEmptyFileGivesTheDefaults() throws {
        let loaded = try load("")
        let bridge = loaded.bridge
        #expect(bridge.mqtt.host == "127.0.0.1")
        #expect(bridge.mqtt.port == 1883)
        #expect(bridge.mqtt.tls == nil)
        #expect(bridge.mqtt.clientID == "gatt2mqtt-testhost")
        #expect(bridge.mqtt.protocolVersion == .v5)
        #expect(bridge.mqtt.keepAlive == 30)
        #expect(bridge.mqtt.username == nil)
        #expect(bridge.mqtt.password == nil)
        #expect(bridge.adapters == ["hci0"])
        #expect(bridge.gateway == "testhost")
        #expect(bridge.autoConnect == .adopted([]))
        #expect(bridge.stateDirectory == "/var/lib/gatt2mqtt")
        #expect(bridge.aliases.isEmpty)
        #expect(bridge.activ5.squeeze == .init())
        #expect(bridge.activ5.keepAliveInterval == .seconds(60))
        #expect(bridge.activ5.reconnect)
        #expect(bridge.cprBand.angleSamples == 5)
        #expect(bridge.cprBand.targetRange == .vendorDefault)
        #expect(bridge.cprBand.rateWindowSeconds == 10)
        #expect(bridge.cprBand.distance == CPRBandDistanceModel(referencePowerDBm: -59, exponent: 2))
        #expect(bridge.gripProfile == .placeholder)
        #expect(bridge.payloadSizeLimit == 16 * 1024)
        #expect(loaded.logLevel == .info)
        #expect(loaded.file == nil)
    }

    @Test func nullValuesAndEmptySectionsAreDefaults() throws {
        let loaded = try load(
            """
            broker:
              username:
              tls: ~
            a5: null
            belt: {}
            adapter:
            """)
        #expect(loaded.bridge.mqtt.username == nil)
        #expect(loaded.bridge.mqtt.tls == nil)
        #expect(loaded.bridge.adapters == ["hci0"])
    }

    @Test func everyKeyIsParsed() throws {
        let folder = try TemporaryFolder()
        try folder.write("password.txt", "pa55word\n")
        for name in ["ca.pem", "client.pem", "client.key"] { try folder.write(name, "PEM") }
        let profile = try Data(contentsOf: URL(fileURLWithPath: ProjectPaths.root + "/examples/grip-profile.json"))
        try folder.write("grip.json", String(decoding: profile, as: UTF8.self))
        let loaded = try load(
            """
            broker:
              url: mqtts://[::1]:8884
              client_id: my-client
              protocol: 3.1.1
              keepalive_s: 45
              reply_topics: ["reply/#", "nodered/+/answers"]
              username: alice
              password_file: password.txt
              tls:
                ca_file: ca.pem
                cert_file: \(folder.path)/client.pem
                key_file: client.key
            gateway: {name: lab-2}
            adapter: hci1
            devices:
              auto_connect: allowed
              allow: [11:22:33:44:55:66, aa:bb:cc:dd:ee:ff]
              aliases: {11:22:33:44:55:66: desk, "aa:bb:cc:dd:ee:ff": door_2}
            belt: {}
            a5: {squeeze_newtons: 30.5, release_newtons: 7, double_squeeze_s: 2.5, keepalive_s: 90, reconnect: manual}
            cpr:
              angle_samples: 8
              range_mm: [40, 65]
              rate_window_s: 15
              distance: {reference_dbm: -65.5, exponent: 3}
            grip: {profile: grip.json}
            log_level: debug
            payload_size_limit: 4096
            """, directory: folder.path)
        let mqtt = loaded.bridge.mqtt
        #expect(mqtt.host == "::1")
        #expect(mqtt.port == 8884)
        #expect(mqtt.clientID == "my-client")
        #expect(mqtt.protocolVersion == .v311)
        #expect(mqtt.keepAlive == 45)
        #expect(loaded.bridge.replyTopics.map(\.text) == ["reply/#", "nodered/+/answers"])
        #expect(mqtt.username == "alice")
        #expect(mqtt.password == "pa55word")
        #expect(
            mqtt.tls
                == MQTTTLSConfiguration(
                    caFile: folder.path + "/ca.pem", certificateFile: folder.path + "/client.pem",
                    keyFile: folder.path + "/client.key"))
        let bridge = loaded.bridge
        #expect(bridge.gateway == "lab-2")
        #expect(bridge.adapters == ["hci1"])
        #expect(bridge.autoConnect == .allowList(["11:22:33:44:55:66", "AA:BB:CC:DD:EE:FF"]))
        #expect(bridge.aliases == ["11:22:33:44:55:66": "desk", "AA:BB:CC:DD:EE:FF": "door_2"])
        #expect(bridge.activ5.squeeze == .init(pressedNewtons: 30.5, releasedNewtons: 7, windowSeconds: 2.5))
        #expect(bridge.activ5.keepAliveInterval == .seconds(90))
        #expect(!bridge.activ5.reconnect)
        #expect(bridge.cprBand.angleSamples == 8)
        #expect(bridge.cprBand.targetRange == (try CPRBandDepthRange(minMillimetres: 40, maxMillimetres: 65)))
        #expect(bridge.cprBand.rateWindowSeconds == 15)
        #expect(bridge.cprBand.distance == CPRBandDistanceModel(referencePowerDBm: -65.5, exponent: 3))
        #expect(bridge.gripProfile == (try GripProfile.load(json: profile)))
        #expect(loaded.logLevel == .debug)
        #expect(bridge.payloadSizeLimit == 4096)
    }

    @Test(arguments: [
        (
            "colour: red", "colour",
            "the top level takes a5, adapter, adapter_slots, adapters, base_topic, belt, bluez, broker, cpr, devices, fleet, gateway, grip, "
                + "health_file, health_s, homeassistant, hr, http, limits, log_level, log_level_mqtt, payload_size_limit"
        ),
        ("topic_prefix: home", "topic_prefix", "unknown key"),
        (
            "a5:\n  sqeeze_newtons: 3", "a5.sqeeze_newtons",
            "a5 takes battery_s, double_squeeze_s, keepalive_s, reconnect"
        ),
        ("broker:\n  tls:\n    ca: x", "broker.tls.ca", "broker.tls takes ca_file, cert_file, key_file"),
        ("cpr:\n  distance:\n    tx_dbm: 1", "cpr.distance.tx_dbm", "cpr.distance takes exponent, reference_dbm"),
        ("belt:\n  mode: app", "belt.mode", "belt takes no keys yet"),
        ("gateway:\n  nam: x", "gateway.nam", "gateway takes name"),
        ("devices:\n  alias: {}", "devices.alias", "devices takes aliases, allow, auto_connect"),
        ("grip:\n  file: x", "grip.file", "grip takes profile"),
    ])
    func unknownKeysAreNamedByTheirPath(yaml: String, key: String, message: String) throws {
        let error = try #require(loadError(yaml))
        #expect(error.key == key)
        #expect(error.message.contains("unknown key"))
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func aPasswordInTheFileIsRefused() throws {
        let error = try #require(loadError("broker:\n  password: hunter2"))
        #expect(error.key == "broker.password")
        #expect(error.message.contains("password_file"))
        #expect(!error.description.contains("hunter2"))
    }

    @Test(arguments: [
        ("a5:\n  squeeze_newtons: lots", "a5.squeeze_newtons", "must be a number, not 'lots'"),
        ("a5:\n  squeeze_newtons: \"30\"", "a5.squeeze_newtons", "must be a number, not the quoted string \"30\""),
        ("a5:\n  keepalive_s: .inf", "a5.keepalive_s", "must be a number"),
        ("a5:\n  keepalive_s: [1]", "a5.keepalive_s", "not a list"),
        ("broker: mqtt://x", "broker", "must be a mapping (broker takes client_id, keepalive_s"),
        ("broker:\n  keepalive_s: 2.5", "broker.keepalive_s", "must be a whole number, not '2.5'"),
        ("broker:\n  url: {host: x}", "broker.url", "must be a single value, not a mapping"),
        ("devices:\n  allow: AA:BB:CC:DD:EE:FF", "devices.allow", "must be a list"),
        ("devices:\n  allow: [[a]]", "devices.allow[0]", "not a list"),
        ("devices:\n  aliases: [desk]", "devices.aliases", "must be a mapping"),
        ("cpr:\n  range_mm: [50, x]", "cpr.range_mm[1]", "must be a whole number"),
        ("cpr:\n  range_mm: 50", "cpr.range_mm", "must be a list"),
        ("adapter: [hci0]", "adapter", "not a list"),
        ("gateway: lab", "gateway", "must be a mapping (gateway takes name)"),
        ("payload_size_limit: 16k", "payload_size_limit", "must be a whole number"),
        ("grip:\n  profile: \"\"", "grip.profile", "must be a file name"),
    ])
    func wrongTypesAreNamed(yaml: String, key: String, message: String) throws {
        let error = try #require(loadError(yaml))
        #expect(error.key == key)
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func errorsGiveTheLine() throws {
        let error = try #require(loadError("adapter: hci0\na5:\n  squeeze_newtons: lots\n"))
        #expect(error.description == "a5.squeeze_newtons: must be a number, not 'lots' (line 3)")
    }

    @Test func aKeyGivenTwiceIsAnError() throws {
        let error = try #require(loadError("a5:\n  reconnect: auto\n  reconnect: manual"))
        #expect(error.key == "a5.reconnect")
        #expect(error.message.contains("given twice"))
    }

    @Test func anAliasGivenTwiceIsAnError() throws {
        let error = try #require(loadError("devices:\n  aliases:\n    AA:BB:CC:DD:EE:FF: a\n    AA:BB:CC:DD:EE:FF: b"))
        #expect(error.key == "devices.aliases.AA:BB:CC:DD:EE:FF")
        #expect(error.message.contains("given twice"))
    }

    @Test func aDocumentThatIsNotAMappingIsAnError() throws {
        let error = try #require(loadError("- broker\n- adapter"))
        #expect(error.key == "(yaml)")
        #expect(error.message.contains("must be a mapping of keys"))
    }

    @Test func invalidYAMLIsAnError() throws {
        let error = try #require(loadError("a5: [1, 2\nadapter: hci0"))
        #expect(error.key == "(yaml)")
        #expect(error.message.hasPrefix("not valid YAML"))
    }

    @Test func scalarsAreTakenAsWritten() throws {
        // YAML 1.1 would read 10:20:30:40:50:59 as a base-60 number and 0123 as octal.
        let loaded = try load(
            """
            broker: {username: 0123}
            devices: {allow: [10:20:30:40:50:59]}
            """)
        #expect(loaded.bridge.mqtt.username == "0123")
        #expect(loaded.bridge.autoConnect == .allowList(["10:20:30:40:50:59"]))
    }

    @Test func relativeFileNamesAreRelativeToTheFile() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path + "/etc", withIntermediateDirectories: true)
        try folder.write("etc/password", "pw")
        let configuration = try folder.write("etc/gatt2mqtt.yaml", "broker: {username: u, password_file: password}")
        let loaded = try ConfigurationLoader.load(
            commandLine: flags { $0.configFile = configuration }, environment: withOwnStateDirectory(in: folder),
            hostName: "h")
        #expect(loaded.bridge.mqtt.password == "pw")
        #expect(loaded.file == configuration)
    }
}
