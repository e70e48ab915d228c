import CMosquitto

#if canImport(Glibc)
    import Glibc
#endif

/// `mosquitto_lib_init` is not thread-safe and must run once per process; a global `let` is
/// initialised lazily under `swift_once`, which gives exactly that.
private let libraryInitialization: Int32 = mosquitto_lib_init()

/// Owns one `struct mosquitto *` and translates its error codes.
///
/// `@unchecked Sendable` because the pointer crosses threads, which is safe here for these
/// reasons:
/// - libmosquitto guards its queues, its message state and the packet being written with its
///   mutexes, so publish/subscribe/unsubscribe may be called from any thread while another runs the
///   network loop;
/// - over plain TCP the handle is not put in threaded mode: the publishing thread writes the packet
///   itself (under libmosquitto's `current_out_packet_mutex`), and the I/O thread is not woken for
///   it. Over TLS it is (`mosquitto_threaded_set(true)`): an OpenSSL connection must not be written
///   by one thread while another reads it, so packets are queued for the thread that serves the socket
///   (the host thread while the socket rides on one, `HostedLoop.swift`; else the client's own);
/// - the calls that are not safe to overlap (connect, reconnect, loop, disconnect) are made only
///   by the client's I/O thread, after setup;
/// - setup (options, credentials, TLS, will, callbacks) happens in `MQTTClient.init` before the
///   handle is shared, and `mosquitto_destroy` in `deinit`, when nothing else holds it.
final class MosquittoHandle: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Whether packets are written only by the thread that serves the socket (TLS), or by whichever thread sends them.
    let writesOnIOThread: Bool

    init(clientID: String, cleanStart: Bool, writesOnIOThread: Bool) throws {
        _ = libraryInitialization
        // The user data is attached later by the client, once it is fully initialised.
        guard let pointer = mosquitto_new(clientID, cleanStart, nil) else {
            throw MQTTError.invalidConfiguration("mosquitto_new failed for client id '\(clientID)'")
        }
        self.pointer = pointer
        self.writesOnIOThread = writesOnIOThread
        mosquitto_threaded_set(pointer, writesOnIOThread)
    }

    deinit {
        mosquitto_destroy(pointer)
    }

    /// Throws `MQTTError.library` unless `code` is `MOSQ_ERR_SUCCESS`.
    /// The operation's name is built only on failure: a publish names its topic, on every message.
    static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws {
        guard code != MosquittoHandle.success else { return }
        throw MQTTError.library(operation: operation(), code: code, message: describe(code))
    }

    /// libmosquitto's own sentence for an error code.
    static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_ERRNO.rawValue, let text = strerror(errno) {
            return String(cString: text)
        }
        return String(cString: mosquitto_strerror(code))
    }

    static let success = MOSQ_ERR_SUCCESS.rawValue
    static let noConnection = MOSQ_ERR_NO_CONN.rawValue
    static let tlsFailure = MOSQ_ERR_TLS.rawValue
}
