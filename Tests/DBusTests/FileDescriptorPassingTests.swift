import Foundation
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

    /// Suites run in parallel, and any of them may spawn a child (a broker, a bus, a simulator) while a socket
    /// of this suite is open: a child spawned between the pair's creation and the moment the server closes its
    /// copy of the returned end (here, at once, as the handler returns) gets no copy of either end, and the
    /// descriptor the client receives is close-on-exec too. A copy the child kept would hold the client's end
    /// open for the child's whole life, and the server's end would hear no hang-up when the client closes it.
    @Test func aChildSpawnedMeanwhileKeepsNoEnd() async throws {
        try await PrivateBus.with { bus in
            let server = try DBusConnection(address: bus.address)
            let client = try DBusConnection(address: bus.address)
            let child = Mutex<ManagedProcess?>(nil)
            let kept = try exportSocketPair(on: server) {
                child.withLock { $0 = try? ManagedProcess.launch("sleep", arguments: ["30"]) }
            }
            let reply = try await client.call(
                destination: server.uniqueName, path: "/socket", interface: "test.Sockets", member: "Acquire")
            let received = try #require(reply.first?.fileDescriptor)
            #expect(fcntl(received, F_GETFD) & FD_CLOEXEC != 0, "libdbus makes a received descriptor close-on-exec")
            let spawned = try #require(child.withLock { $0 }, "the child was spawned while the pair was open")
            let ends = kept.links.withLock { $0 }
            #expect(ends.count == 2)
            let inherited = Self.links(of: spawned.processIdentifier)
            #expect(inherited.isDisjoint(with: ends), "the child holds \(inherited.intersection(ends))")
            close(received)
            let serverEnd = kept.descriptor.withLock { $0 }
            var poller = pollfd(fd: serverEnd, events: Int16(POLLIN), revents: 0)
            #expect(poll(&poller, 1, 5000) == 1)
            #expect(poller.revents & Int16(POLLHUP) != 0, "the child holds no copy of the client's end")
            close(serverEnd)
            await spawned.terminate()
            client.close()
            server.close()
        }
    }

    /// What the descriptors of process `pid` are (`socket:[inode]`, `pipe:[inode]`, a path), from /proc.
    static func links(of pid: Int32) -> Set<String> {
        let folder = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Set(names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0) })
    }

    /// Serves `test.Sockets.Acquire` at `/socket`: a new socket pair each call, one end returned (with an
    /// MTU of 23, as AcquireNotify answers), the other kept in the result for the test to write to.
    /// `meanwhile` runs while both ends are open, before the handler returns.
    private func exportSocketPair(
        on server: DBusConnection, meanwhile: @escaping @Sendable () -> Void = {}
    ) throws -> KeptEnd {
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
                                // Close-on-exec, as BlueZ's and the product's: `aChildSpawnedMeanwhileKeepsNoEnd`.
                                let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                                guard socketpair(AF_UNIX, type, 0, &pair) == 0 else {
                                    throw DBusError.invalidArgs("socketpair")
                                }
                                kept.descriptor.withLock { $0 = pair[0] }
                                kept.links.withLock { links in
                                    links = Set(
                                        pair.compactMap {
                                            try? FileManager.default.destinationOfSymbolicLink(
                                                atPath: "/proc/self/fd/\($0)")
                                        })
                                }
                                meanwhile()
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
    /// What both ends of the last pair are in /proc (`socket:[inode]`): how a child's copy of one is recognised.
    let links = Mutex<Set<String>>([])
}
