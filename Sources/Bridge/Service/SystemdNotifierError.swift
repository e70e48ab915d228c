#if canImport(Glibc)
    import Glibc
#endif

/// Why a message did not reach systemd. Never fatal: the daemon logs it and keeps running.
public enum SystemdNotifierError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `NOTIFY_SOCKET` is neither an absolute path nor `@name` (for example a `vsock:` address).
    case unsupportedSocketAddress(String)
    /// `NOTIFY_SOCKET` does not fit in `sockaddr_un`.
    case socketAddressTooLong(String)
    /// `socket(AF_UNIX, SOCK_DGRAM)` failed.
    case socketFailed(errno: Int32)
    /// `sendto` failed (systemd gone, socket removed, no permission, …).
    case sendFailed(socket: String, errno: Int32)
    /// The datagram went out truncated.
    case shortSend(socket: String, sent: Int, expected: Int)

    public var description: String {
        switch self {
        case .unsupportedSocketAddress(let value):
            "NOTIFY_SOCKET '\(value)' is neither an absolute path nor an abstract '@' name"
        case .socketAddressTooLong(let value):
            "NOTIFY_SOCKET '\(value)' is longer than a unix socket address may be"
        case .socketFailed(let code):
            "cannot open a notify socket: \(Self.message(code))"
        case .sendFailed(let socket, let code):
            "cannot notify systemd at \(socket): \(Self.message(code))"
        case .shortSend(let socket, let sent, let expected):
            "notify message to \(socket) truncated: \(sent) of \(expected) bytes"
        }
    }

    private static func message(_ code: Int32) -> String { String(cString: strerror(code)) }
}
