import Foundation

/// Finds TCP ports that nothing listens on, so parallel test runs do not collide.
public enum FreePort {
    /// A port on 127.0.0.1 that was free a moment ago: the kernel picks it for a socket bound to
    /// port 0, and the socket is closed again. Servers that set SO_REUSEADDR (mosquitto does) can
    /// bind it right away.
    public static func allocate() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXFailure("socket") }
        defer { close(fd) }
        return try bindLoopback(fd)
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
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
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
