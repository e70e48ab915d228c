import Testing

@testable import DaemonConfiguration

/// Health interval and file, session expiry, command rate limits and the restart hold-off.
struct OperationalSettingsTests {
    @Test func theyAreReadFromTheFileAndTheHealthFlagWins() throws {
        let yaml = "health_s: 2.5\nbroker: {session_expiry_s: 60}\nlimits: {command_rate: 5, command_burst: 9}"
        let loaded = try ConfigurationLoader.load(yaml: yaml)
        #expect(loaded.bridge.healthInterval == .milliseconds(2500))
        #expect(loaded.bridge.sessionExpirySeconds == 60)
        #expect(loaded.bridge.commandRate.perSecond == 5)
        #expect(loaded.bridge.commandRate.burst == 9)
        let flags = flags("--health-seconds", "1")
        #expect(try ConfigurationLoader.load(yaml: yaml, commandLine: flags).bridge.healthInterval == .seconds(1))
    }

    /// `GATT2MQTT_HEALTH_FILE` (what the container image sets) wins over the file's `health_file`; none by default.
    @Test func theHealthFileComesFromTheEnvironmentOrTheFile() throws {
        #expect(try load("").bridge.healthFile == nil)
        #expect(try load("health_file: /run/gatt2mqtt/alive").bridge.healthFile == "/run/gatt2mqtt/alive")
        let both = try load(
            "health_file: /run/gatt2mqtt/alive", environment: ["GATT2MQTT_HEALTH_FILE": "/tmp/gatt2mqtt-alive"])
        #expect(both.bridge.healthFile == "/tmp/gatt2mqtt-alive")
    }

    /// `broker.reply_topics`: `reply/#` unless set; an empty list leaves only the gateway's own reply topics.
    @Test func replyTopicsDefaultToReplyAndMayBeNone() throws {
        #expect(try load("").bridge.replyTopics.map(\.text) == ["reply/#"])
        #expect(try load("broker: {reply_topics: []}").bridge.replyTopics.isEmpty)
        #expect(
            try load("broker: {reply_topics: [answers/+/x, '#']}").bridge.replyTopics.map(\.text) == [
                "answers/+/x", "#",
            ])
        #expect(try load("").description.contains(#"reply_topics: ["reply/#"]"#))
    }

    /// `limits.restart_holdoff_s`: how long after a start `request/restart` is refused; 120 s unless set, 0 for none.
    @Test func theRestartHoldOffIsTwoMinutesUnlessSet() throws {
        #expect(try load("").bridge.restartHoldOff == .seconds(120))
        #expect(try load("limits: {restart_holdoff_s: 0}").bridge.restartHoldOff == .zero)
        let flagged = try load(
            "limits: {restart_holdoff_s: 30}", flags: flags("--limits-restart-holdoff-seconds", "600"))
        #expect(flagged.bridge.restartHoldOff == .seconds(600))
        #expect(try load("").description.contains("restart_holdoff_s: 120"), "--print-config shows it")
    }

    /// `requests.privileged`: `auto` unless set (options and restart taken only when the gateway logs in to the
    /// broker), `true` or `false` from the file, a flag or the environment; `--print-config` shows it.
    @Test func privilegedRequestsAreAutoUnlessSet() throws {
        #expect(try load("").bridge.privilegedRequests == .auto)
        #expect(try load("requests: {privileged: false}").bridge.privilegedRequests == .off)
        let flagged = try load("requests: {privileged: false}", flags: flags("--requests-privileged", "true"))
        #expect(flagged.bridge.privilegedRequests == .on)
        let environment = try ConfigurationLoader.load(
            yaml: "", environment: ["GATT2MQTT_REQUESTS_PRIVILEGED": "false"], hostName: "testhost")
        #expect(environment.bridge.privilegedRequests == .off)
        #expect(try load("").description.contains("privileged: auto"), "--print-config shows it")
    }

    @Test(arguments: [
        ("requests: {privileged: maybe}", "requests.privileged: must be auto, true or false, not 'maybe'"),
        ("limits: {restart_holdoff_s: -1}", "limits.restart_holdoff_s: must be from 0"),
        ("health_s: 0", "health_s: must be from 0.1"),
        ("limits: {command_rate: 0}", "limits.command_rate: must be more than 0"),
        ("limits: {command_burst: 0}", "limits.command_burst: must be from 1"),
        ("broker: {session_expiry_s: -1}", "broker.session_expiry_s: must be from 0"),
        ("limits: {speed: 3}", "limits"),
    ])
    func badValuesNameTheirKey(yaml: String, message: String) {
        #expect {
            _ = try ConfigurationLoader.load(yaml: yaml)
        } throws: { "\($0)".contains(message) }
    }
}
