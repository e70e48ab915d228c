import CMosquitto
import Foundation
import Glibc
import Testing

@testable import MQTT

/// The client's connection is close-on-exec, and stays so across a reconnect: libmosquitto makes its socket
/// without the flag, and a child spawned by the process meanwhile (a test runner's) would keep the connection
/// open after the client closed it.
@Suite(.serialized) struct CloseOnExecTests {
    static func isCloseOnExec(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFD)
        return flags >= 0 && flags & FD_CLOEXEC != 0
    }

    @Test func theConnectionsSocketIsCloseOnExec() async throws {
        try await withBroker { broker in
            let client = try await broker.connectedClient("cloexec")
            let socket = mosquitto_socket(client.handle.pointer)
            #expect(socket >= 0)
            #expect(Self.isCloseOnExec(socket), "the socket of the first connection")
            try await broker.restart()
            _ = try await nextEvent(from: client) { if case .disconnected = $0 { true } else { false } }
            _ = try await nextEvent(from: client) { if case .connected = $0 { true } else { false } }
            let again = mosquitto_socket(client.handle.pointer)
            #expect(again >= 0)
            #expect(Self.isCloseOnExec(again), "the socket of the connection made again")
            await client.stop()
        }
    }
}
