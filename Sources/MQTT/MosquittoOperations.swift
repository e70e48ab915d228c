import CMosquitto

/// The calls any thread may make on a running handle. They only queue packets (threaded mode)
/// and return libmosquitto's code, so the caller decides which codes are errors.
extension MosquittoHandle {
    func publish(_ message: MQTTMessage, version: MQTTProtocolVersion) throws -> Int32 {
        // libmosquitto refuses properties on a 3.1.1 connection; the contract is to drop them.
        // Telemetry has no properties: no list is made for it (one allocation less per message).
        let properties = version == .v5 && message.hasProperties ? try PropertyList.forPublish(message) : nil
        return message.payload.withUnsafeBytes { payload in
            mosquitto_publish_v5(
                pointer, nil, message.topic, Int32(payload.count), payload.baseAddress,
                Int32(message.qos.rawValue), message.retain, properties?.pointer)
        }
    }

    /// A message without retain or properties, from its bytes as they are.
    func publishValue(topic: String, payload: UnsafeRawBufferPointer, qos: MQTTQoS) -> Int32 {
        mosquitto_publish_v5(
            pointer, nil, topic, Int32(payload.count), payload.baseAddress, Int32(qos.rawValue), false, nil)
    }

    func subscribe(_ filter: String, qos: MQTTQoS, version: MQTTProtocolVersion) -> Int32 {
        mosquitto_subscribe_v5(pointer, nil, filter, Int32(qos.rawValue), 0, nil)
    }

    func unsubscribe(_ filter: String) -> Int32 {
        mosquitto_unsubscribe_v5(pointer, nil, filter, nil)
    }
}
