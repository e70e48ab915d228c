import Foundation
import Logging
import MQTT
import Testing

@testable import Bridge

/// `gatt2mqtt/<gateway>/log`, on a whole gateway in memory: its lines reach the topic through a log tap as the
/// daemon's handlers hand them over (`InMemoryGateway`'s `logTopic` is `log_level_mqtt`). Lines of one level go out
/// in the order they were logged, so a line that is not there once a later one is will never come.
@Suite(.timeLimit(.minutes(1))) struct GatewayLogTopicTests {
    static let topic = "gatt2mqtt/test/log"

    /// A warning the gateway itself logs (a command for a device it does not know) goes out as it was logged: its
    /// level, message, label and metadata, a time, not retained, at QoS 0.
    @Test func aWarningGoesOutWithItsLevelAndMessage() async throws {
        try await InMemoryGateway.with(logTopic: .warning) { gateway in
            try gateway.publish("belt/001122334455/cmd/stop", "{}")
            let message = await gateway.probe.next(on: Self.topic) { $0.contains("command refused") }
            let line = try #require(LogLine(message))
            #expect(line.level == "warning")
            #expect(line.message == "command refused")
            #expect(line.label == "gateway", "the logger's label")
            #expect(line.metadata["code"] == "not_connected")
            #expect(line.metadata["topic"] == "belt/001122334455/cmd/stop")
            #expect(line.time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ/) != nil, "ISO 8601, UTC: \(line.time)")
            #expect(line.dropped == nil, "nothing was left out")
            #expect(message.qos == .atMostOnce)
            #expect(!message.retain && gateway.broker.retained(Self.topic) == nil, "an event, never retained")
            let start = #"{"label":"gateway","level":"warning","message":"command refused","metadata":{"#
            #expect(message.payloadString?.hasPrefix(start) == true, "keys sorted: \(message.payloadString ?? "")")
        }
    }

    /// Below the level nothing goes; from it on, everything does.
    @Test func aLineBelowTheLevelStaysOffTheTopic() async throws {
        try await InMemoryGateway.with(logTopic: .warning) { gateway in
            let logger = gateway.log.logger()
            logger.info("below the level")
            logger.notice("still below")
            logger.error("above the level")
            await gateway.probe.next(on: Self.topic) { $0.contains("above the level") }
            logger.warning("at the level")
            await gateway.probe.next(on: Self.topic) { $0.contains("at the level") }
            let said = gateway.probe.payloads(on: Self.topic)
            #expect(!said.contains { $0.contains("below") }, "\(said)")
        }
    }

    /// `off` publishes nothing, whatever the level; a level set at run time (SIGHUP sets the tap's) takes effect
    /// at the next line.
    @Test func offPublishesNothingUntilALevelIsSet() async throws {
        try await InMemoryGateway.with(logTopic: nil) { gateway in
            let logger = gateway.log.logger()
            logger.critical("while off")
            try gateway.publish("belt/001122334455/cmd/stop", "{}")
            await gateway.log.waitForLine(containing: "command refused")
            gateway.log.tap?.level = .warning
            logger.warning("once on")
            await gateway.probe.next(on: Self.topic) { $0.contains("once on") }
            let said = gateway.probe.payloads(on: Self.topic)
            #expect(said.count == 1, "only the line after the level was set: \(said)")
        }
    }

    /// A flood of warnings: the first `burst` go out, the rest are left out, and the next warning, once the period
    /// has passed, says how many. An error meanwhile has a budget of its own, so the flood cannot hide it.
    @Test func aFloodIsLimitedAndTheNextLineSaysHowManyWereLeftOut() async throws {
        try await InMemoryGateway.with(
            logTopic: .warning, configure: { $0.logTopicRate = (burst: 5, period: .seconds(60)) }
        ) { gateway in
            let logger = gateway.log.logger()
            for index in 0..<30 { logger.warning("flood \(index)") }
            logger.error("an error in the flood")
            // The minute after the flood, without waiting for it: the line is offered at that moment.
            gateway.bridge.logTopic.offer(
                LogTopicLine(level: .warning, label: "gateway", message: "after the flood", metadata: [:], time: .now),
                at: .now + .seconds(61))
            let after = await gateway.probe.next(on: Self.topic) { $0.contains("after the flood") }
            #expect(LogLine(after)?.dropped == 25, "30 warnings, 5 went: \(after.payloadString ?? "")")
            let said = gateway.probe.payloads(on: Self.topic).compactMap { LogLine($0)?.message }
            #expect(said.filter { $0.hasPrefix("flood") } == (0..<5).map { "flood \($0)" }, "the burst, in order")
            #expect(said.contains("an error in the flood"))
        }
    }

    /// With a base topic the log is under it, as every gateway topic is.
    @Test func theBaseTopicComesFirst() async throws {
        try await InMemoryGateway.with(logTopic: .warning, configure: { $0.baseTopic = "site-a/floor-1" }) { gateway in
            gateway.log.logger().warning("under the base topic")
            let message = await gateway.probe.next(on: "site-a/floor-1/gatt2mqtt/test/log")
            #expect(LogLine(message)?.message == "under the base topic")
            #expect(gateway.probe.payloads(on: Self.topic).isEmpty, "nothing without the prefix")
        }
    }

    /// The broker password is never put into a log line, whatever the level: a run with a belt connected and
    /// commands sent publishes lines without it.
    @Test func theBrokerPasswordIsNeverPutIntoALogLine() async throws {
        let password = "hunter2\\with a backslash"
        try await InMemoryGateway.with(
            logTopic: .debug, configure: { $0.mqtt.password = password }
        ) { gateway in
            let belt = InMemoryDevices.belt()
            let id = await gateway.connect(belt, family: "belt")
            try gateway.publish("belt/\(id)/cmd/mode", #"{"mode":"app"}"#, responseTopic: "reply/test/mode")
            await gateway.probe.next(on: "reply/test/mode")
            // A barrier, as the first warning of the run (each level has its own budget of lines a minute).
            gateway.log.logger().warning("the run is over")
            await gateway.probe.next(on: Self.topic) { $0.contains("the run is over") }
            let said = gateway.probe.payloads(on: Self.topic)
            #expect(said.contains { $0.contains("device found") }, "the run's own lines went too: \(said)")
            let escaped = password.replacingOccurrences(of: "\\", with: "\\\\")
            for payload in said {
                #expect(!payload.contains("hunter2"), "\(payload)")
                #expect(!payload.contains(escaped))
            }
        }
    }

    /// No password oracle (issue #56): text from outside is logged as it came, whatever it holds. A command whose
    /// text is the broker's password and one with a wrong guess make log lines that differ only in the guess; when
    /// the password showed as `<redacted>` instead, whoever could send commands and read the log learnt which guess
    /// was right.
    @Test func aCommandHoldingThePasswordIsLoggedAsOneWithAWrongGuess() async throws {
        let password = "hunter2-broker"
        let guess = "hunter3-broker"
        try await InMemoryGateway.with(
            logTopic: .warning, configure: { $0.mqtt.password = password }
        ) { gateway in
            var lines: [LogLine] = []
            for text in [password, guess] {
                let mark = gateway.probe.mark
                try gateway.publish("belt/001122334455/cmd/vibrate", #"{"pattern":"\#(text)"}"#)
                let message = await gateway.probe.next(on: Self.topic, after: mark) { $0.contains("command refused") }
                lines.append(try #require(LogLine(message)))
            }
            let (right, wrong) = (lines[0], lines[1])
            #expect(right.metadata["reason"]?.contains("'pattern' '\(password)' is unknown") == true, "\(right)")
            #expect(wrong.metadata["reason"]?.contains("'pattern' '\(guess)' is unknown") == true, "\(wrong)")
            #expect(right.level == wrong.level && right.label == wrong.label && right.message == wrong.message)
            #expect(
                right.metadata.mapValues { $0.replacingOccurrences(of: password, with: guess) } == wrong.metadata,
                "the two lines differ in the guess only: \(right.metadata) \(wrong.metadata)")
            let said = gateway.probe.payloads(on: Self.topic)
            #expect(!said.contains { $0.contains("redacted") }, "\(said)")
        }
    }
}

/// What the log topic's queue does on its own: bounded while nothing publishes, never taking a line logged while
/// one is published.
@Suite struct LogTopicQueueTests {
    static func line(_ message: String, _ level: Logger.Level = .warning) -> LogTopicLine {
        LogTopicLine(level: level, label: "x", message: message, metadata: [:], time: .now)
    }

    /// Before the broker is there (or while it is away) at most `capacity` lines wait, the oldest; the next line
    /// queued says how many were left out.
    @Test func atMostAFixedNumberOfLinesWait() {
        let log = LogTopic(topic: "t", burst: 1000)
        for index in 0..<(LogTopic.capacity + 8) { log.offer(Self.line("\(index)"), at: .now) }
        var waiting: [String] = []
        while let first = log.first {
            waiting.append(first.message)
            log.finished(first, published: true)
        }
        #expect(waiting == (0..<LogTopic.capacity).map(String.init), "the oldest wait")
        log.offer(Self.line("next"), at: .now)
        #expect(log.first?.dropped == 8)
    }

    /// A line that could not be published counts in the next of its level, with whatever it said was left out.
    @Test func aLineTheBrokerDidNotTakeIsCounted() throws {
        let log = LogTopic(topic: "t", burst: 1000)
        log.offer(Self.line("lost"), at: .now)
        log.finished(try #require(log.first), published: false)
        log.offer(Self.line("an error", .error), at: .now)
        #expect(log.first?.dropped == 0, "another level's count is its own")
        log.finished(try #require(log.first), published: true)
        log.offer(Self.line("next"), at: .now)
        #expect(log.first?.dropped == 1)
    }

    /// What is logged while a line is published (by the broker client, on that task) is not taken.
    @Test func aLineLoggedWhilePublishingIsNotTaken() {
        let log = LogTopic(topic: "t")
        LogTopic.$isPublishing.withValue(true) { log.offer(level: .error, label: "x", message: "inner", metadata: [:]) }
        #expect(log.first == nil)
        log.offer(level: .error, label: "x", message: "outer", metadata: [:])
        #expect(log.first?.message == "outer")
    }

    @Test func thePayloadIsSortedJSONAndSaysDroppedOnlyWhenLinesWereLeftOut() {
        var line = LogTopicLine(
            level: .error, label: "gatt2mqtt.bluez", message: "say \"hi\"", metadata: ["b": "2", "a": "1"],
            time: Date(timeIntervalSince1970: 1_795_896_900))
        #expect(
            line.json
                == #"{"label":"gatt2mqtt.bluez","level":"error","message":"say \"hi\"","metadata":{"a":"1","b":"2"},"time":"2026-11-28T20:15:00Z"}"#
        )
        line.dropped = 3
        #expect(line.json.hasPrefix(#"{"dropped":3,"label""#))
    }
}

/// A log topic payload, read.
private struct LogLine {
    var level: String
    var label: String
    var message: String
    var metadata: [String: String]
    var time: String
    var dropped: Int?

    init?(_ message: MQTTMessage) { self.init(message.payloadString ?? "") }

    init?(_ payload: String) {
        guard case .object(let members)? = JSONValue.parse(Array(payload.utf8)),
            let level = members["level"]?.string, let label = members["label"]?.string,
            let text = members["message"]?.string, let time = members["time"]?.string,
            case .object(let metadata)? = members["metadata"]
        else { return nil }
        (self.level, self.label, self.message, self.time) = (level, label, text, time)
        self.metadata = metadata.compactMapValues(\.string)
        dropped = members["dropped"]?.wholeNumber
    }
}
