import Foundation
import Locks

/// Finds TCP ports that nothing listens on, so parallel test runs do not collide.
public enum FreePort {
    /// A port on 127.0.0.1 that nothing holds, for a server a test starts (now, or later: a broker that "appears").
    ///
    /// Taken below the kernel's ephemeral range (`net.ipv4.ip_local_port_range`), never from it: the kernel gives
    /// ports of that range to every outgoing connection and port-0 bind on the machine, hundreds a second while the
    /// suite runs, and once, between a test's choice and its broker's start, one of them took the port ("Address
    /// already in use"). Below the range only a server that names its port can take one. Handed out in turn from a
    /// random start, each checked free by a bind with SO_REUSEADDR (as mosquitto binds), so one process never gets a
    /// port twice and parallel runs rarely meet.
    public static func allocate() throws -> Int {
        for _ in 0..<range.count {
            let port = next.withLock { next in
                defer { next = next == range.upperBound ? range.lowerBound : next + 1 }
                return next
            }
            if isFreeToBind(port) { return port }
        }
        throw POSIXFailure("bind 127.0.0.1 on any port of \(range)")
    }

    /// The 12 768 ports just below the ephemeral range (20000–32767 with Linux's default 32768–60999).
    static let range: ClosedRange<Int> = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let ephemeralStart = text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32768
        let upper = max(ephemeralStart - 1, 2048)
        return max(upper - 12767, 1024)...upper
    }()

    private static let next = Mutex(Int.random(in: range))

    /// Whether a server could bind 127.0.0.1:`port` now.
    static func isFreeToBind(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return bind(fd, toLoopbackPort: port)
    }

    /// Binds `fd` to 127.0.0.1:`port` with SO_REUSEADDR, as a server binds; false when something holds the port.
    static func bind(_ fd: Int32, toLoopbackPort port: Int) -> Bool {
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` right now.
    public static func isAccepting(port: Int) -> Bool {
        // A refused loopback connect fails at once, so the timeout only bounds an unanswered one.
        guard let connection = try? TCPSocket.connect(port: port, timeout: .seconds(1)) else { return false }
        connection.close()
        return true
    }

    /// 127.0.0.1:`port`, for bind and connect.
    static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Binds `fd` to 127.0.0.1 on a port the kernel picks, and returns that port.
    static func bindLoopback(_ fd: Int32) throws -> Int {
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                Glibc.bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else { throw POSIXFailure("bind 127.0.0.1:0") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A failed system call, with errno's text.
public struct POSIXFailure: Error, CustomStringConvertible, Sendable {
    /// The call and its argument.
    public let operation: String
    /// errno at the time of failure.
    public let code: Int32

    /// Captures errno for `operation`.
    public init(_ operation: String) {
        self.operation = operation
        self.code = errno
    }

    /// A sentence for test failures.
    public var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
}
