import Logging
import MQTT
import Metrics

extension Duration {
    /// Whole nanoseconds (saturating), as swift-metrics' timers take them.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds.multipliedReportingOverflow(by: 1_000_000_000).overflow
            ? .max : seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Sends publications and command replies to the broker (or to any `MessageSink`).
public struct BrokerPublisher: Sendable {
    let client: any MessageSink
    let topics: TopicMap
    let logger: Logger
    /// Where a command's or request's MQTT 5 response topic is taken.
    let replySpace: ReplySpace
    /// Refused commands are logged a few times a minute per error code: anyone on the broker can send them.
    let warnings: WarningLimiter
    /// Retained commands and requests cleared, until their echo comes back (`RetainedClearings`).
    let clearings = RetainedClearings()

    init(
        client: any MessageSink, topics: TopicMap, logger: Logger, replySpace: ReplySpace? = nil,
        warnings: WarningLimiter = WarningLimiter()
    ) {
        self.client = client
        self.topics = topics
        self.logger = logger
        self.replySpace = replySpace ?? ReplySpace(topics: topics)
        self.warnings = warnings
    }

    /// Where to answer `request`: its response topic when it is in the reply space, else `fallback`.
    func answerTopic(for request: MQTTMessage, otherwise fallback: String) -> String {
        guard let requested = request.responseTopic else { return fallback }
        if let refusal = replySpace.refusal(of: requested) {
            warnings.warn(
                "response topic refused: answered on \(fallback)", kind: "response topic refused",
                metadata: [
                    "topic": "\(request.topic.prefix(200))", "response_topic": "\(requested.prefix(200))",
                    "reason": "\(refusal.rawValue)",
                ], to: logger)
            return fallback
        }
        return requested
    }

    /// Clears the retained message on `topic` (an empty retained payload), a command's or request's that came
    /// retained; its echo is then not taken for a new one. Where the broker's ACL forbids the write it drops it, and
    /// the retained message stays, refused again whenever it comes.
    func clearRetained(_ topic: String) {
        guard clearings.record(topic) else {
            logger.debug(
                "retained message left on the broker: too many clearings wait", metadata: ["topic": "\(topic)"])
            return
        }
        do {
            try client.publish(MQTTMessage(topic: topic, payload: [], qos: .atLeastOnce, retain: true))
        } catch {
            logger.debug("cannot clear the retained message on \(topic): \(error)")
        }
    }

    public func publish(_ publication: Publication) {
        do {
            let qos = MQTTQoS(rawValue: publication.qos) ?? .atMostOnce
            if publication.retain {
                try client.publish(
                    MQTTMessage(topic: publication.topic, string: publication.payload, qos: qos, retain: true))
            } else {
                try client.publishValue(topic: publication.topic, payload: publication.payload, qos: qos)
            }
        } catch {
            // Telemetry while the broker is away is dropped (retained state is kept and re-sent by the client).
            logger.debug("not published \(publication.topic): \(error)")
        }
    }

    /// Answers a command: on its MQTT 5 response topic with its correlation data when it has them and the topic is
    /// in the reply space, otherwise on `<family>/<id>/reply`. `received` times the command for `/metrics`
    /// (`gatt2mqtt_command_duration_seconds`, by family and outcome).
    public func reply(
        _ reply: CommandReply, to request: MQTTMessage, family: DeviceFamily, id: String,
        received: ContinuousClock.Instant
    ) {
        let outcome = reply.error?.code.rawValue ?? "ok"
        Metrics.Timer(
            label: "gatt2mqtt_command_duration_seconds",
            dimensions: [("family", family.rawValue), ("outcome", outcome)]
        )
        .recordNanoseconds((ContinuousClock.now - received).nanoseconds)
        if let error = reply.error {
            warnings.warn(
                "command refused", kind: "command refused (\(error.code.rawValue))",
                metadata: [
                    "topic": "\(request.topic)", "code": "\(error.code.rawValue)", "reason": "\(error.message)",
                ], to: logger)
        }
        let topic = answerTopic(for: request, otherwise: topics.reply(family, id))
        do {
            try client.publish(
                MQTTMessage(
                    topic: topic, string: reply.json.text, qos: .atLeastOnce, correlationData: request.correlationData))
        } catch {
            logger.error("cannot send reply to \(topic): \(error)")
        }
    }

    /// Publishes a device failure on `<family>/<id>/error` (an event: QoS 1, not retained) and logs it.
    func report(_ failure: DeviceFailure, family: DeviceFamily, id: String, logger: Logger) {
        logger.warning("device error", metadata: ["code": "\(failure.code.rawValue)", "reason": "\(failure.message)"])
        publish(Publication(topic: topics.device(family, id, "error"), payload: failure.json.text, qos: 1))
    }
}
