import CMosquitto

#if canImport(Glibc)
    import Glibc
#endif

extension MQTTClient {
    /// Breaks the TCP connection without a DISCONNECT, as a crash or a network failure would:
    /// the broker then publishes the will, and the client reconnects with backoff. Internal, for
    /// tests (`@testable import MQTT`) that need an unclean disconnect of this very client.
    func breakConnectionForTesting() {
        let socket = mosquitto_socket(handle.pointer)
        // shutdown, not close: the descriptor stays owned by libmosquitto, which sees EOF in
        // its next read on the I/O thread and handles the loss as it would a real one.
        if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
    }
}
