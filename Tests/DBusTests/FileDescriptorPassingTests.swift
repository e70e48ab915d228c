import Glibc
import Locks
import TestSupport
import Testing

@testable import DBus

/// A socket handed over the bus and read on the connection's own thread: AcquireNotify's path.
@Suite(.serialized)
struct FileDescriptorPassingTests {
    /// The server returns one end of a socket pair; the client reads the packets written to the other
    /// end on its bus thread, each as it was written, and hears the hang-up when the server closes it.
    @Test func aSocketReturnedByAMethodIsReadOnTheClientsBusThread() async throws {
        try await PrivateBus.with { bus in
            let server = try DBusConnection(address: bus.address)
            let client = try DBusConnection(address: bus.address)
            #expect(client.canPassFileDescriptors, "a Unix-socket bus passes descriptors")
            let kept = try exportSocketPair(on: server)
            let reply = try await client.call(
                destination: server.uniqueName, path: "/socket", interface: "test.Sockets", member: "Acquire")
            let socket = try #require(reply.first?.fileDescriptor)
            #expect(reply.dropFirst().first?.uint16 == 23)

            let (events, continuation) = AsyncStream<String>.makeStream()
            client.watch(socket) { hungUp in
                var buffer = [UInt8](repeating: 0, count: 64)
                while case let count = recv(socket, &buffer, buffer.count, Int32(MSG_DONTWAIT)), count > 0 {
                    continuation.yield(String(decoding: buffer[0..<count], as: UTF8.self))
                }
                if hungUp {
                    client.unwatch(socket)  // from within its own handler, as a reader that ends does
                    continuation.yield("hang-up")
                    continuation.finish()
                }
            }
            let serverEnd = kept.descriptor.withLock { $0 }
            for packet in ["one", "two", "three"] {
                _ = packet.withCString { send(serverEnd, $0, strlen($0), 0) }
            }
            close(serverEnd)
            var heard: [String] = []
            for await event in events { heard.append(event) }
            #expect(heard == ["one", "two", "three", "hang-up"])
            close(socket)
            client.close()
            server.close()
        }
    }

    /// The server's copy of a descriptor it returned is closed once the reply holds its own: the client's
    /// end is the only one left, so closing it hangs up the server's end.
    @Test func aReturnedDescriptorIsHandedOverNotShared() async throws {
        try await PrivateBus.with { bus in
            let server = try DBusConnection(address: bus.address)
            let client = try DBusConnection(address: bus.address)
            let kept = try exportSocketPair(on: server)
            let reply = try await client.call(
                destination: server.uniqueName, path: "/socket", interface: "test.Sockets", member: "Acquire")
            close(try #require(reply.first?.fileDescriptor))
            let serverEnd = kept.descriptor.withLock { $0 }
            var poller = pollfd(fd: serverEnd, events: Int16(POLLIN), revents: 0)
            #expect(poll(&poller, 1, 5000) == 1)
            #expect(poller.revents & Int16(POLLHUP) != 0, "the server's end hangs up once the client's copy is closed")
            close(serverEnd)
            client.close()
            server.close()
        }
    }

    /// Serves `test.Sockets.Acquire` at `/socket`: a new socket pair each call, one end returned (with an
    /// MTU of 23, as AcquireNotify answers), the other kept in the result for the test to write to.
    private func exportSocketPair(on server: DBusConnection) throws -> KeptEnd {
        let kept = KeptEnd()
        try server.export(
            DBusObject(
                path: "/socket",
                interfaces: [
                    DBusInterface(
                        name: "test.Sockets",
                        methods: [
                            "Acquire": { _ in
                                var pair: [Int32] = [-1, -1]
                                guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair) == 0 else {
                                    throw DBusError.invalidArgs("socketpair")
                                }
                                kept.descriptor.withLock { $0 = pair[0] }
                                return [.unixFD(pair[1]), .uint16(23)]
                            }
                        ])
                ]))
        return kept
    }
}

/// The server's end of the last socket pair it made.
private final class KeptEnd: Sendable {
    let descriptor = Mutex<Int32>(-1)
}
