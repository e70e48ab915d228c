import Bridge
import Foundation
import MQTT
import Testing

@testable import DaemonConfiguration

struct ConfigurationValidationTests {
    @Test(arguments: [
        ("a5: {squeeze_newtons: 4}", "a5.squeeze_newtons", "must be a number greater than a5.release_newtons (5)"),
        (
            "a5: {squeeze_newtons: 10, release_newtons: 10}", "a5.squeeze_newtons",
            "greater than a5.release_newtons (10)"
        ),
        ("a5: {release_newtons: 25}", "a5.release_newtons", "must be a number less than a5.squeeze_newtons (20)"),
        ("a5: {release_newtons: -1}", "a5.release_newtons", "0 or more, not -1"),
        ("a5: {double_squeeze_s: 0}", "a5.double_squeeze_s", "above 0, at most 60, not 0"),
        ("a5: {double_squeeze_s: 61}", "a5.double_squeeze_s", "at most 60"),
        ("a5: {keepalive_s: 0.5}", "a5.keepalive_s", "from 1 to 86400, not 0.5"),
        ("a5: {reconnect: sometimes}", "a5.reconnect", "must be auto or manual, not 'sometimes'"),
        ("broker: {keepalive_s: 2}", "broker.keepalive_s", "from 5 to 65535 seconds, not 2"),
        ("broker: {keepalive_s: 70000}", "broker.keepalive_s", "from 5 to 65535"),
        ("broker: {protocol: 4}", "broker.protocol", "must be 5 or 3.1.1, not '4'"),
        ("broker: {url: 'http://x'}", "broker.url", "'http://x' is not a broker URL: unsupported scheme 'http'"),
        ("broker: {url: 'mqtt://x:99999'}", "broker.url", "port must be a number from 1 to 65535"),
        ("broker: {client_id: ''}", "broker.client_id", "must be a non-empty MQTT client identifier"),
        ("broker: {username: ''}", "broker.username", "must not be empty"),
        (
            "broker: {reply_topics: ['reply/#/x']}", "broker.reply_topics",
            "must be MQTT topic filters ('+' and '#' only as whole levels, '#' last), not 'reply/#/x'"
        ),
        ("broker: {reply_topics: ['']}", "broker.reply_topics", "not ''"),
        ("cpr: {angle_samples: 0}", "cpr.angle_samples", "from 1 to 1000, not 0"),
        ("cpr: {range_mm: [30, 60]}", "cpr.range_mm", "min 35…55 and max from min to 69, not [30, 60]"),
        ("cpr: {range_mm: [50, 70]}", "cpr.range_mm", "not [50, 70]"),
        ("cpr: {range_mm: [55, 50]}", "cpr.range_mm", "not [55, 50]"),
        ("cpr: {range_mm: [50]}", "cpr.range_mm", "must be [min, max]"),
        ("cpr: {rate_window_s: 0}", "cpr.rate_window_s", "above 0, at most 3600"),
        ("cpr: {distance: {reference_dbm: 30}}", "cpr.distance.reference_dbm", "from -127 to 20, not 30"),
        ("cpr: {distance: {exponent: 0}}", "cpr.distance.exponent", "from 1 to 10 (2 is free space, 2.7 to 4 indoors)"),
        // Subnormal: above 0, and it made every distance infinite (issue #56).
        ("cpr: {distance: {exponent: 1e-320}}", "cpr.distance.exponent", "from 1 to 10"),
        ("cpr: {distance: {exponent: 0.5}}", "cpr.distance.exponent", "not 0.5"),
        ("cpr: {distance: {exponent: 11}}", "cpr.distance.exponent", "not 11"),
        (
            "log_level: loud", "log_level",
            "must be trace, debug, info, notice, warning, error or critical, not 'loud'"
        ),
        ("payload_size_limit: 10", "payload_size_limit", "from 64 to 268435455 bytes, not 10"),
        ("gateway: {name: a/b}", "gateway.name", "must be 1 to 64 letters, digits, '-' or '_'"),
        ("gateway: {name: '+'}", "gateway.name", "not '+'"),
        ("adapter: hci 0", "adapter", "must be a BlueZ adapter name such as hci0, not 'hci 0'"),
        ("adapter: ../hci0", "adapter", "such as hci0"),
        ("adapters: [hci0, 'hci 1']", "adapters", "such as hci0, not 'hci 1'"),
        ("adapters: []", "adapters", "must name at least one adapter"),
        ("adapters: hci0", "adapters", "must be a list"),
        ("adapters: [hci0, hci1, hci0]", "adapters", "names an adapter twice: hci0, hci1, hci0"),
        ("adapter: hci0\nadapters: [hci1]", "adapters", "and adapter both name adapters: use one of them"),
        ("adapter_slots: 0", "adapter_slots", "from 1 to 64 connections, not 0"),
        ("fleet: {enabled: maybe}", "fleet.enabled", "must be auto, true or false, not 'maybe'"),
        ("homeassistant: {enabled: yes}", "homeassistant.enabled", "must be true or false, not 'yes'"),
        ("homeassistant: {discovery_prefix: 'ha/#'}", "homeassistant.discovery_prefix", "not 'ha/#'"),
        ("homeassistant: {discovery_prefix: ''}", "homeassistant.discovery_prefix", "not ''"),
        ("homeassistant: {fast_streams: 1}", "homeassistant.fast_streams", "must be true or false, not '1'"),
        ("homeassistant: {discovery: devices}", "homeassistant.discovery", "must be device or entity, not 'devices'"),
        ("fleet: {enabled: true, refresh_s: 0.1}", "fleet.refresh_s", "from 0.5 to 600 seconds, not 0.1"),
        ("base_topic: a/+/b", "base_topic", "without '+', '#', empty levels or a leading '$', not 'a/+/b'"),
        ("base_topic: site/", "base_topic", "not 'site/'"),
        ("base_topic: $SYS", "base_topic", "not '$SYS'"),
        ("devices: {auto_connect: some}", "devices.auto_connect", "must be adopted, all, none or allowed, not 'some'"),
        ("devices: {allow: [nope]}", "devices.allow", "'nope' is not a Bluetooth address"),
        ("devices: {allow: ['AA:BB:CC:DD:EE']}", "devices.allow", "is not a Bluetooth address"),
        (
            "devices: {auto_connect: none, allow: ['AA:BB:CC:DD:EE:FF']}", "devices.allow",
            "devices.auto_connect is none"
        ),
        (
            "broker: {tls: {ca_file: /etc/hostname}}", "broker.tls.ca_file",
            "needs an mqtts:// broker, but broker.url is"
        ),
        (
            "broker: {url: 'mqtts://x', tls: {cert_file: /etc/hostname}}", "broker.tls.cert_file",
            "needs broker.tls.key_file"
        ),
        (
            "broker: {url: 'mqtts://x', tls: {key_file: /etc/hostname}}", "broker.tls.key_file",
            "needs broker.tls.cert_file"
        ),
        (
            "broker: {url: 'mqtts://x', tls: {ca_file: /no/ca.pem}}", "broker.tls.ca_file",
            "cannot read /no/ca.pem: no such file"
        ),
        ("broker: {password_file: /no/password}", "broker.password_file", "cannot read /no/password: no such file"),
        ("broker: {password_file: /tmp}", "broker.password_file", "it is a directory"),
        // A device is never read: /dev/zero would fill the memory, a terminal or a pipe would wait for ever.
        (
            "broker: {password_file: /dev/zero}", "broker.password_file",
            "cannot read /dev/zero: it is not a regular file"
        ),
        (
            "broker: {password_file: /etc/hostname/x}", "broker.password_file",
            "cannot read /etc/hostname/x: not a directory"
        ),
        ("grip: {profile: /no/grip.json}", "grip.profile", "cannot read /no/grip.json: no such file"),
    ])
    func badValuesAreNamed(yaml: String, key: String, message: String) throws {
        let error = try #require(loadError(yaml))
        #expect(error.key == key)
        #expect(error.message.contains(message), "\(error)")
    }

    /// The error that refuses a URL with credentials in it names the settings for them, and shows no password.
    @Test func aBrokerURLWithAPasswordIsRefusedWithoutShowingIt() throws {
        let error = try #require(loadError("broker: {url: 'mqtt://ops:s3cret@broker.example:1883'}"))
        #expect(
            error.description
                == "broker.url: 'mqtt://***@broker.example:1883' is not a broker URL: only HOST[:PORT] may follow the "
                + "scheme: the user name and password are settings of their own")
    }

    @Test func theSqueezeMessageReadsAsAsked() throws {
        let error = try #require(loadError("a5:\n  squeeze_newtons: 4\n  release_newtons: 5"))
        #expect(error.description == "a5.squeeze_newtons: must be a number greater than a5.release_newtons (5)")
    }

    @Test func anInvalidGripProfileIsNamed() throws {
        let folder = try TemporaryFolder()
        try folder.write("grip.json", "{\"name\": 1}")
        let error = try #require(loadError("grip: {profile: grip.json}", directory: folder.path))
        #expect(error.key == "grip.profile")
        #expect(error.message.hasPrefix("cannot load \(folder.path)/grip.json: "))
    }

    @Test func mqttsWithoutTLSFilesTrustsTheSystemStore() throws {
        let loaded = try load("broker: {url: 'mqtts://broker.example'}")
        #expect(loaded.bridge.mqtt.tls == MQTTTLSConfiguration())
        #expect(loaded.bridge.mqtt.port == 8883)
    }

    @Test func theDefaultGatewayIsTheHostNameMadeSafe() {
        #expect(ConfigurationResolver.defaultGateway(hostName: "pi-4.local") == "pi-4")
        #expect(ConfigurationResolver.defaultGateway(hostName: "my host!") == "my_host_")
        #expect(ConfigurationResolver.defaultGateway(hostName: "") == "gateway")
        #expect(ConfigurationResolver.defaultGateway(hostName: "Ωmega") == "_mega")
    }
}

struct AliasTests {
    @Test(arguments: ["desk", "front-belt", "trainer_a5", "a", "0", String(repeating: "x", count: 64)])
    func validAliasesLoad(alias: String) throws {
        let loaded = try load("devices:\n  aliases:\n    'aa:bb:cc:dd:ee:ff': '\(alias)'")
        #expect(loaded.bridge.aliases == ["AA:BB:CC:DD:EE:FF": alias])
    }

    @Test(arguments: [
        "Desk", "front belt", "a/b", "a+", "#", "", "café", "desk.1", String(repeating: "x", count: 65),
    ])
    func invalidAliasesAreNamed(alias: String) throws {
        let error = try #require(loadError("devices:\n  aliases:\n    'aa:bb:cc:dd:ee:ff': '\(alias)'"))
        #expect(error.key == "devices.aliases.aa:bb:cc:dd:ee:ff")
        #expect(error.message.contains("must be 1 to 64 lower-case letters, digits, '-' or '_'"), "\(error)")
        #expect(error.message.contains("not '\(alias)'"))
    }

    @Test func anAliasMayNotLookLikeADeviceID() throws {
        let error = try #require(loadError("devices:\n  aliases:\n    'AA:BB:CC:DD:EE:FF': 112233445566"))
        #expect(error.key == "devices.aliases.AA:BB:CC:DD:EE:FF")
        #expect(error.message.contains("looks like a device id"))
    }

    @Test func anAliasKeyMustBeAnAddress() throws {
        let error = try #require(loadError("devices:\n  aliases:\n    desk: front"))
        #expect(error.key == "devices.aliases.desk")
        #expect(error.message.contains("'desk' is not a Bluetooth address"))
    }

    @Test func twoDevicesMayNotShareAnAlias() throws {
        let error = try #require(
            loadError("devices:\n  aliases:\n    'AA:BB:CC:DD:EE:01': desk\n    'AA:BB:CC:DD:EE:02': desk"))
        #expect(error.key == "devices.aliases.AA:BB:CC:DD:EE:02")
        #expect(error.message == "'desk' is the alias of AA:BB:CC:DD:EE:01 already")
    }

    @Test func oneAddressSpelledTwiceIsAnError() throws {
        let error = try #require(
            loadError("devices:\n  aliases:\n    'AA:BB:CC:DD:EE:01': a\n    'aa:bb:cc:dd:ee:01': b"))
        #expect(error.key == "devices.aliases.aa:bb:cc:dd:ee:01")
        #expect(error.message.contains("has an alias already"))
    }
}

@Suite struct HomeAssistantSettingsTests {
    @Test func discoveryIsOnUnderHomeassistantByDefault() throws {
        let options = try load("").bridge.homeAssistant
        #expect(options.enabled && options.discoveryPrefix == "homeassistant")
    }

    @Test func itCanBeTurnedOffOrMovedToAnotherPrefix() throws {
        let options = try load("homeassistant:\n  enabled: false\n  discovery_prefix: site-a/ha\n").bridge.homeAssistant
        #expect(!options.enabled && options.discoveryPrefix == "site-a/ha")
        let printed = try load("homeassistant: {discovery_prefix: ha}").description
        #expect(printed.contains("homeassistant:\n  enabled: true\n  discovery_prefix: \"ha\"\n"))
    }

    /// The fast streams are added disabled unless the file says otherwise (`FastStreams.swift`).
    @Test func fastStreamsAreOffUnlessTurnedOn() throws {
        #expect(try !load("").bridge.homeAssistant.fastStreams)
        let loaded = try load("homeassistant:\n  fast_streams: true\n")
        #expect(loaded.bridge.homeAssistant.fastStreams)
        #expect(loaded.description.contains("  discovery_prefix: \"homeassistant\"\n  fast_streams: true\n"))
    }

    /// A config per device unless the file asks for one per entity (`HomeAssistantDiscoveryMode`).
    @Test func discoveryIsPerDeviceUnlessPerEntityIsAskedFor() throws {
        #expect(try load("").bridge.homeAssistant.discovery == .device)
        let loaded = try load("homeassistant:\n  discovery: entity\n")
        #expect(loaded.bridge.homeAssistant.discovery == .entity)
        #expect(loaded.description.contains("  discovery: entity\n"))
    }
}
