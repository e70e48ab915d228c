import CMosquitto
import Logging

/// The C callbacks. libmosquitto calls them on the I/O thread (or, for logging, on whichever
/// thread made the call), with `userData` set to the client; they are non-capturing closures
/// that recover the client through `Unmanaged` and copy everything they need before returning,
/// because libmosquitto frees the message and properties afterwards.
extension MosquittoHandle {
    func installCallbacks(userData: UnsafeMutableRawPointer) {
        mosquitto_user_data_set(pointer, userData)
        mosquitto_connect_v5_callback_set(pointer) { _, userData, code, flags, _ in
            MosquittoHandle.client(userData)?.didReceiveConnack(code: code, flags: flags)
        }
        mosquitto_disconnect_v5_callback_set(pointer) { _, userData, code, _ in
            MosquittoHandle.client(userData)?.didDisconnect(code: code)
        }
        mosquitto_message_v5_callback_set(pointer) { _, userData, message, properties in
            guard let client = MosquittoHandle.client(userData), let message else { return }
            client.didReceive(MosquittoHandle.copy(message.pointee, properties: properties))
        }
        mosquitto_publish_v5_callback_set(pointer) { _, userData, _, _, _ in
            MosquittoHandle.client(userData)?.didFinishPublish()
        }
        setLibraryLog(enabled: true)
    }

    /// libmosquitto formats a line for every packet whenever a log callback is set, whatever its level
    /// (vsnprintf and malloc on every publish). The client keeps it while connecting, where TLS and
    /// connection errors are told only there, and drops it once connected unless debug lines are wanted.
    func setLibraryLog(enabled: Bool) {
        guard enabled else { return mosquitto_log_callback_set(pointer, nil) }
        mosquitto_log_callback_set(pointer) { _, userData, level, text in
            guard let client = MosquittoHandle.client(userData), let text else { return }
            client.libraryLog(level: level, text: text)
        }
    }

    /// Makes later callbacks (e.g. logging during `mosquitto_destroy`) find no client.
    func detachCallbacks() {
        mosquitto_log_callback_set(pointer, nil)
        mosquitto_user_data_set(pointer, nil)
    }

    private static func client(_ userData: UnsafeMutableRawPointer?) -> MQTTClient? {
        userData.map { Unmanaged<MQTTClient>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func copy(_ message: mosquitto_message, properties: OpaquePointer?) -> MQTTMessage {
        let payload =
            message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
        var copy = MQTTMessage(
            topic: message.topic.map { String(cString: $0) } ?? "",
            payload: payload,
            qos: MQTTQoS(rawValue: Int(message.qos)) ?? .atMostOnce,
            retain: message.retain)
        PropertyList.decode(properties, into: &copy)
        return copy
    }
}

/// What the client does when a callback fires. Only the state lock is taken here, never the
/// session lock, and libmosquitto is not called back into.
extension MQTTClient {
    func didFinishPublish() {
        state.withLock { $0.unfinishedPublishes = max(0, $0.unfinishedPublishes - 1) }
    }

    func didReceiveConnack(code: Int32, flags: Int32) {
        if code == 0 {
            state.withLock { state in
                if state.hasEverConnected { state.statistics.reconnects += 1 }
                state.hasEverConnected = true
                state.isConnected = true
                state.sessionNeedsRestore = true
                state.failedAttempts = 0
                state.lastError = nil
                state.lastFatalError = nil
                // connected(timeout:) waiters are resumed by the I/O thread once the session is
                // restored, so a caller that then subscribes cannot race the restore.
            }
            logger.info("connected to \(configuration.host):\(configuration.port)")
            emit(.connected(sessionPresent: flags & 1 != 0))
        } else {
            // MQTT 5 CONNACK carries reason codes, 3.1.1 the older return codes.
            let reason =
                configuration.protocolVersion == .v5
                ? String(cString: mosquitto_reason_string(code)) : String(cString: mosquitto_connack_string(code))
            if ConnackRefusal.isTemporary(code: code, version: configuration.protocolVersion) {
                // A broker starting, overloaded or rate-limiting says so; it will accept later. The client
                // retries with backoff and its connection waiters keep waiting (a RabbitMQ node accepts TCP
                // before its MQTT plugin admits clients, and answers "server unavailable" meanwhile).
                state.withLock { state in
                    state.lastError = reason
                    state.refusalRecorded = true
                    state.lastFatalError = nil  // the broker's newest answer is the one that counts
                }
                logger.warning("broker refused the connection for now: \(reason); retrying")
                return
            }
            let error = MQTTError.connectionRefused(reason: reason)
            state.withLock { state in
                state.lastError = reason
                state.refusalRecorded = true
                state.lastFatalError = error
                state.connectionWaiters.resumeAll(throwing: error)
            }
            logger.error("broker refused the connection: \(reason)")
        }
    }

    func didDisconnect(code: Int32) {
        let wasConnected = state.withLock { state in
            defer { state.isConnected = false }
            return state.isConnected
        }
        let reason = code == 0 ? "disconnected by the client" : MosquittoHandle.describe(code)
        if wasConnected || code != 0 {
            logger.notice("disconnected: \(reason)")
        }
        emit(.disconnected(reason: reason))
    }

    func didReceive(_ message: MQTTMessage) {
        // Counted before the yield, so a consumer that sees the message also sees the count.
        state.withLock { $0.statistics.messagesReceived += 1 }
        if let limit = configuration.maximumPacketSize, message.payload.count > limit {
            state.withLock { $0.statistics.oversizedMessages += 1 }
            return
        }
        guard waitingBytes.admit(message) else {
            state.withLock { $0.statistics.droppedMessages += 1 }
            return
        }
        switch messageContinuation.yield(message) {
        case .enqueued: break
        case .dropped(let oldest):
            waitingBytes.remove(oldest)
            state.withLock { $0.statistics.droppedMessages += 1 }
        case .terminated:
            waitingBytes.remove(message)
        @unknown default: break
        }
    }

    func libraryLog(level: Int32, text: UnsafePointer<CChar>) {
        let swiftLevel: Logger.Level =
            switch level {
            case MOSQ_LOG_ERR: .error
            case MOSQ_LOG_WARNING: .warning
            case MOSQ_LOG_NOTICE, MOSQ_LOG_INFO: .debug
            default: .trace
            }
        // Building the String costs more than the check; libmosquitto logs every packet.
        guard swiftLevel >= logger.logLevel else { return }
        logger.log(level: swiftLevel, "libmosquitto: \(String(cString: text))")
    }
}
