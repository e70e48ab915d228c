import Foundation
import Testing

@testable import TestSupport

/// The ports tests start their servers on come from below the kernel's ephemeral range, where no outgoing
/// connection of the suite can take one between a test's choice and its server's start.
struct FreePortTests {
    @Test func portsAreBelowTheEphemeralRangeDistinctAndFree() throws {
        let text = try String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)
        let ephemeralStart = try #require(text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) })
        let ports = try (0..<200).map { _ in try FreePort.allocate() }
        #expect(ports.allSatisfy { $0 < ephemeralStart && $0 >= 1024 }, "\(ports.filter { $0 >= ephemeralStart })")
        #expect(Set(ports).count == ports.count, "one process never gets a port twice")
        #expect(ports.allSatisfy(FreePort.isFreeToBind))
    }

    /// A port a server listens on is not free to bind, so `allocate` skips it.
    @Test func aPortAServerListensOnIsNotFree() throws {
        let port = try FreePort.allocate()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        #expect(FreePort.bind(fd, toLoopbackPort: port) && listen(fd, 1) == 0)
        #expect(!FreePort.isFreeToBind(port))
    }
}
