import CDBus
import Foundation
import Glibc
import TestSupport
import Testing
import WakePipe

@testable import DBus

/// Every descriptor the D-Bus side holds is close-on-exec: the daemon spawns nothing, but a test runner hosts the
/// same code beside the children its suites spawn in parallel, and a child that inherited a socket or a pipe would
/// keep it open for its whole life (a peer that never hears the hang-up, a loop woken by a stranger).
struct CloseOnExecTests {
    static func isCloseOnExec(_ descriptor: Int32) -> Bool {
        let flags = fcntl(descriptor, F_GETFD)
        return flags >= 0 && flags & FD_CLOEXEC != 0
    }

    /// The descriptors of this process that are the same file as `descriptor` (both ends of a pipe), from /proc.
    static func sameFile(as descriptor: Int32) throws -> [Int32] {
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { name in
            guard let number = Int32(name),
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)")) == link
            else { return nil }
            return number
        }
    }

    @Test func bothEndsOfAWakePipeAreCloseOnExec() throws {
        let pipe = try #require(WakePipe())
        let ends = try Self.sameFile(as: pipe.readEnd)
        #expect(ends.count == 2, "a pipe's two ends: \(ends)")
        for end in ends { #expect(Self.isCloseOnExec(end), "descriptor \(end)") }
    }

    @Test func aConnectionsSocketAndEpollSetAreCloseOnExec() async throws {
        try await PrivateBus.with { bus in
            let connection = try DBusConnection(address: bus.address)
            var socket: Int32 = -1
            #expect(dbus_connection_get_unix_fd(connection.raw, &socket) != 0)
            #expect(Self.isCloseOnExec(socket), "libdbus's socket to the bus")
            let epoll = try #require(connection.mainLoop?.userDescriptors)
            #expect(Self.isCloseOnExec(epoll), "the main loop's epoll set")
            connection.close()
        }
    }
}
