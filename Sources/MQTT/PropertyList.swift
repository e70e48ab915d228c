import CMosquitto

#if canImport(Glibc)
    import Glibc
#endif

/// An owned `mosquitto_property *` list: freed when this goes away, unless handed to
/// libmosquitto with `release()`. A class so that the one owner frees it exactly once.
final class PropertyList {
    private(set) var pointer: OpaquePointer?

    init() {}

    deinit {
        mosquitto_property_free_all(&pointer)
    }

    /// Forgets the list without freeing it, after libmosquitto took ownership.
    func release() {
        pointer = nil
    }

    /// The PUBLISH (or will) properties of `message`.
    static func forPublish(_ message: MQTTMessage) throws -> PropertyList {
        let list = PropertyList()
        if let topic = message.responseTopic {
            try list.add(
                mosquitto_property_add_string(&list.pointer, id(MQTT_PROP_RESPONSE_TOPIC), topic), "response topic")
        }
        if let data = message.correlationData {
            guard data.count <= Int(UInt16.max) else {
                throw MQTTError.invalidConfiguration("correlation data longer than 65535 bytes")
            }
            let code = data.withUnsafeBytes {
                mosquitto_property_add_binary(
                    &list.pointer, id(MQTT_PROP_CORRELATION_DATA), $0.baseAddress, UInt16($0.count))
            }
            try list.add(code, "correlation data")
        }
        if let expiry = message.messageExpiry {
            try list.add(
                mosquitto_property_add_int32(&list.pointer, id(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL), expiry),
                "message expiry")
        }
        for property in message.userProperties {
            try list.add(
                mosquitto_property_add_string_pair(
                    &list.pointer, id(MQTT_PROP_USER_PROPERTY), property.name, property.value),
                "user property '\(property.name)'")
        }
        return list
    }

    /// The CONNECT properties the configuration asks for (MQTT 5 only).
    static func forConnect(_ configuration: MQTTConfiguration) throws -> PropertyList {
        let list = PropertyList()
        if configuration.protocolVersion == .v5, let expiry = configuration.sessionExpiry {
            try list.add(
                mosquitto_property_add_int32(&list.pointer, id(MQTT_PROP_SESSION_EXPIRY_INTERVAL), expiry),
                "session expiry")
        }
        if configuration.protocolVersion == .v5, let size = configuration.maximumPacketSize {
            try list.add(
                mosquitto_property_add_int32(&list.pointer, id(MQTT_PROP_MAXIMUM_PACKET_SIZE), UInt32(clamping: size)),
                "maximum packet size")
        }
        return list
    }

    /// Copies the properties the bridge understands out of a received property list into
    /// `message`; the list belongs to libmosquitto and is freed after the callback returns.
    static func decode(_ properties: OpaquePointer?, into message: inout MQTTMessage) {
        guard let properties else { return }

        var text: UnsafeMutablePointer<CChar>?
        if mosquitto_property_read_string(properties, id(MQTT_PROP_RESPONSE_TOPIC), &text, false) != nil, let text {
            message.responseTopic = String(cString: text)
            free(text)
        }

        var binary: UnsafeMutableRawPointer?
        var length: UInt16 = 0
        if mosquitto_property_read_binary(properties, id(MQTT_PROP_CORRELATION_DATA), &binary, &length, false) != nil {
            message.correlationData = binary.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) } ?? []
            free(binary)
        }

        var expiry: UInt32 = 0
        if mosquitto_property_read_int32(properties, id(MQTT_PROP_MESSAGE_EXPIRY_INTERVAL), &expiry, false) != nil {
            message.messageExpiry = expiry
        }

        // User properties repeat: each read continues after the previous match.
        var cursor: OpaquePointer? = properties
        var skipFirst = false
        while true {
            var name: UnsafeMutablePointer<CChar>?
            var value: UnsafeMutablePointer<CChar>?
            guard
                let found = mosquitto_property_read_string_pair(
                    cursor, id(MQTT_PROP_USER_PROPERTY), &name, &value, skipFirst)
            else { break }
            message.userProperties.append(
                MQTTUserProperty(name.map { String(cString: $0) } ?? "", value.map { String(cString: $0) } ?? ""))
            free(name)
            free(value)
            cursor = found
            skipFirst = true
        }
    }

    private func add(_ code: Int32, _ what: String) throws {
        try MosquittoHandle.check(code, "add MQTT 5 property \(what)")
    }

    private static func id(_ property: mqtt5_property) -> Int32 {
        Int32(property.rawValue)
    }
}
