import CMosquitto

/// Applies a configuration to a fresh handle: everything libmosquitto needs before the first
/// connect. Kept out of the client so the client reads as behaviour, not option plumbing.
extension MosquittoHandle {
    func apply(_ configuration: MQTTConfiguration) throws {
        let version = configuration.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        try Self.check(
            mosquitto_int_option(pointer, MOSQ_OPT_PROTOCOL_VERSION, Int32(version)), "set protocol version")
        // Telemetry is many small packets: without TCP_NODELAY, Nagle holds each one back until the
        // broker's delayed ACK (40 ms on Linux) whenever an earlier one is still unacknowledged.
        try Self.check(mosquitto_int_option(pointer, MOSQ_OPT_TCP_NODELAY, 1), "disable Nagle's algorithm")

        if configuration.username != nil || configuration.password != nil {
            try Self.check(
                mosquitto_username_pw_set(pointer, configuration.username, configuration.password),
                "set username/password")
        }
        if let tls = configuration.tls {
            try applyTLS(tls)
        }
        if let will = configuration.will {
            try applyWill(will, version: configuration.protocolVersion)
        }
    }

    private func applyTLS(_ tls: MQTTTLSConfiguration) throws {
        var caPath: String?
        if tls.caFile == nil {
            try Self.check(mosquitto_int_option(pointer, MOSQ_OPT_TLS_USE_OS_CERTS, 1), "use the OS CA store")
            // tls_set insists on a CA source; the OS directory is the same trust as above.
            caPath = "/etc/ssl/certs"
        }
        guard tls.caFile != nil || tls.certificateFile != nil || tls.keyFile != nil else { return }
        let code = mosquitto_tls_set(pointer, tls.caFile, caPath, tls.certificateFile, tls.keyFile, nil)
        if code != Self.success {
            // The usual cause is a file that does not exist or cannot be read: say which.
            let files = [tls.caFile, tls.certificateFile, tls.keyFile].compactMap { $0 }.joined(separator: ", ")
            throw MQTTError.invalidConfiguration("TLS setup failed (\(Self.describe(code))) for \(files)")
        }
    }

    private func applyWill(_ will: MQTTMessage, version: MQTTProtocolVersion) throws {
        let properties = version == .v5 ? try PropertyList.forPublish(will) : PropertyList()
        let code = will.payload.withUnsafeBytes { payload in
            mosquitto_will_set_v5(
                pointer, will.topic, Int32(payload.count), payload.baseAddress,
                Int32(will.qos.rawValue), will.retain, properties.pointer)
        }
        // On success libmosquitto owns the list; on failure it is still ours to free.
        if code == Self.success { properties.release() }
        try Self.check(code, "set will on '\(will.topic)'")
    }
}
