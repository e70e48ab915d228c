import Bridge
import Foundation
import MQTT
import Peripherals
import TestSupport
import Testing

@testable import DaemonConfiguration

/// `examples/gatt2mqtt.yaml`, installed as a user would: beside its password, TLS and grip files.
struct ExampleConfigurationTests {
    static let example = ProjectPaths.root + "/examples/gatt2mqtt.yaml"

    private func installExample() throws -> (folder: TemporaryFolder, file: String) {
        let folder = try TemporaryFolder()
        let file = try folder.write("gatt2mqtt.yaml", try String(contentsOfFile: Self.example, encoding: .utf8))
        try folder.write(
            "grip-profile.json",
            try String(contentsOfFile: ProjectPaths.root + "/examples/grip-profile.json", encoding: .utf8))
        try folder.write("mqtt-password", "example-password\n")
        try folder.write("http-password", "page-password\n")
        try folder.write("http-token", "page-token\n")
        for name in ["ca.pem", "client.pem", "client.key"] { try folder.write(name, "PEM") }
        return (folder, file)
    }

    /// The environment the example loads in: its state directory is the machine's /var/lib/gatt2mqtt, which the
    /// loader reads (options.json) and a test must not; the variable puts it in the test's own folder instead.
    private func ownStateDirectory(_ folder: TemporaryFolder) -> [String: String] {
        ["GATT2MQTT_STATE_DIRECTORY": folder.path + "/state"]
    }

    @Test func theExampleLoads() throws {
        let (folder, file) = try installExample()
        let written = try ConfigurationFileReader.read(
            yaml: try String(contentsOfFile: file, encoding: .utf8), fileName: file, directory: folder.path)
        #expect(written.text(.stateDirectory) == "/var/lib/gatt2mqtt", "the example names the packaged default")
        let loaded = try ConfigurationLoader.load(
            commandLine: flags { $0.configFile = file }, environment: ownStateDirectory(folder), hostName: "h")
        #expect(loaded.bridge.stateDirectory == folder.path + "/state")
        let mqtt = loaded.bridge.mqtt
        #expect(mqtt.host == "broker.example.net")
        #expect(mqtt.port == 8883)
        #expect(mqtt.clientID == "gatt2mqtt-workshop")
        #expect(mqtt.protocolVersion == .v5)
        #expect(mqtt.keepAlive == 30)
        #expect(mqtt.username == "gatt2mqtt")
        #expect(mqtt.password == "example-password")
        #expect(
            mqtt.tls
                == MQTTTLSConfiguration(
                    caFile: folder.path + "/ca.pem", certificateFile: folder.path + "/client.pem",
                    keyFile: folder.path + "/client.key"))
        let bridge = loaded.bridge
        #expect(bridge.gateway == "workshop")
        #expect(bridge.adapters == ["hci0"])
        #expect(bridge.adapterSlots == 5)
        #expect(bridge.gattOperationTimeout == .seconds(5))
        #expect(bridge.fleet?.joining == .whenOthersOnline, "the example shows the fleet's keys at their defaults")
        #expect(bridge.autoConnect == .allowList(["AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:02"]))
        #expect(bridge.aliases == ["AA:BB:CC:DD:EE:01": "front-belt", "AA:BB:CC:DD:EE:02": "trainer_a5"])
        #expect(
            bridge.deviceOptions == [
                "AA:BB:CC:DD:EE:01": DeviceOptions(name: "Front belt", streaming: false),
                "AA:BB:CC:DD:EE:02": DeviceOptions(
                    entities: ["force": .enabled], intervals: ["battery_s": .seconds(300)]),
            ])
        #expect(bridge.activ5.squeeze == .init(pressedNewtons: 20, releasedNewtons: 5, windowSeconds: 5))
        #expect(bridge.activ5.keepAliveInterval == .seconds(60))
        #expect(bridge.activ5.reconnect)
        #expect(bridge.cprBand.angleSamples == 5)
        #expect(bridge.cprBand.targetRange == (try CPRBandDepthRange(minMillimetres: 50, maxMillimetres: 60)))
        #expect(bridge.cprBand.rateWindowSeconds == 10)
        #expect(bridge.cprBand.distance == CPRBandDistanceModel(referencePowerDBm: -59, exponent: 2))
        let profile = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/grip-profile.json"))
        #expect(bridge.gripProfile == (try GripProfile.load(json: profile)))
        #expect(loaded.logLevel == .info)
        #expect(loaded.logLevelMQTT == .warning)
        #expect(bridge.payloadSizeLimit == 16384)
        #expect(
            bridge.homeAssistant.enabled && !bridge.homeAssistant.fastStreams, "the fast streams at their default: off")
        let http = try #require(loaded.http)
        #expect(http.listen == "127.0.0.1:8080")
        #expect(http.username == "operator" && http.password == "page-password" && http.token == "page-token")
    }

    @Test func theExampleHasEveryKey() throws {
        let text = try String(contentsOfFile: Self.example, encoding: .utf8)
        let settings = try ConfigurationFileReader.read(yaml: text, fileName: Self.example, directory: "/x")
        let missing = ConfigurationKey.allCases.filter { key in
            key.isInFile && settings[key] == nil && key.alternative.map { settings[$0] == nil } ?? true
        }.map(\.rawValue)
        #expect(missing.isEmpty, "missing from the example: \(missing)")
    }

    @Test func theExampleNamesEveryFamilyFlag() throws {
        let text = try String(contentsOfFile: Self.example, encoding: .utf8)
        for flag in ConfigurationKey.familyKeys.compactMap(\.flag) {
            #expect(text.contains("flag \(flag)"), "\(flag) is not in the example")
        }
    }

    @Test func theExampleCommentsEveryKey() throws {
        let lines = try String(contentsOfFile: Self.example, encoding: .utf8).split(separator: "\n")
        let keyLines = lines.filter { line in
            let trimmed = line.drop { $0 == " " }
            // Section headers (`broker:`) introduce commented keys; list items belong to their key.
            return !trimmed.hasPrefix("#") && !trimmed.hasPrefix("- ") && trimmed.contains(":")
                && !trimmed.hasSuffix(":")
        }
        for line in keyLines where !line.contains("\"AA:BB") {
            #expect(line.contains(" # "), "no comment: \(line)")
        }
    }

    @Test func thePrintedConfigurationLoadsAgainAsTheSame() throws {
        let (folder, file) = try installExample()
        let loaded = try ConfigurationLoader.load(
            commandLine: flags { $0.configFile = file }, environment: ownStateDirectory(folder), hostName: "h")
        let printed = try folder.write("printed.yaml", loaded.description)
        let reloaded = try ConfigurationLoader.load(
            commandLine: flags { $0.configFile = printed }, environment: ownStateDirectory(folder), hostName: "h")
        #expect(reloaded.description == loaded.description.replacingOccurrences(of: file, with: printed))
        #expect(reloaded.bridge.mqtt.password == loaded.bridge.mqtt.password)
    }
}
