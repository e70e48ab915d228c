import Logging
import MQTT

/// Sends publications and command replies to the broker.
public struct BrokerPublisher: Sendable {
    let client: MQTTClient
    let topics: TopicMap
    let logger: Logger

    public func publish(_ publication: Publication) {
        do {
            try client.publish(MQTTMessage(
                topic: publication.topic, string: publication.payload, qos: MQTTQoS(rawValue: publication.qos) ?? .atMostOnce,
                retain: publication.retain))
        } catch {
            // Telemetry while the broker is away is dropped (retained state is kept and re-sent by the client).
            logger.debug("not published \(publication.topic): \(error)")
        }
    }

    /// Answers a command: on its MQTT 5 response topic with its correlation data when it has them,
    /// otherwise on `<family>/<id>/reply`.
    public func reply(_ reply: CommandReply, to request: MQTTMessage, family: DeviceFamily, id: String) {
        if let error = reply.error {
            logger.warning("command refused", metadata: [
                "topic": "\(request.topic)", "code": "\(error.code.rawValue)", "reason": "\(error.message)",
            ])
        }
        let topic = request.responseTopic ?? topics.reply(family, id)
        do {
            try client.publish(MQTTMessage(
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
