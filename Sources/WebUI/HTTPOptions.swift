/// The `http:` section: where the live page and `/metrics` listen, and who may use them.
public struct HTTPOptions: Sendable, Equatable, CustomStringConvertible {
    /// Loopback unless the configuration names another address: the page can send commands.
    public var host = "127.0.0.1"
    public var port: Int
    /// Basic authentication, when both are set.
    public var username: String?
    public var password: String?
    /// The password as a bcrypt hash (`$2a$`, `$2b$` or `$2y$`), instead of `password`.
    public var passwordHash: String?
    /// A bearer token (`Authorization: Bearer …`, or `?token=…` where a browser cannot set headers).
    public var token: String?
    /// Names the gateway answers to besides IP addresses, `localhost` and the listen host (`HostGuard`): the
    /// machine's names on the network, such as `gateway.local`.
    public var hosts: [String] = []
    /// Connections held at once, in all and from one source (an IPv4 address, an IPv6 /64). At a limit, a
    /// newcomer is let in by closing an idle connection that has not logged in (`ConnectionTable`). A browser
    /// opens about six to a server, a page holds one WebSocket.
    public var maxConnections = 256
    public var maxConnectionsPerSource = 32

    /// `PORT`, `HOST:PORT` or `[IPv6]:PORT`.
    public init(listen: String) throws(HTTPOptionsError) {
        var host = "127.0.0.1"
        var portText = Substring(listen)
        if listen.hasPrefix("["), let close = listen.firstIndex(of: "]") {
            host = String(listen[listen.index(after: listen.startIndex)..<close])
            let rest = listen[listen.index(after: close)...]
            guard rest.hasPrefix(":") else {
                throw HTTPOptionsError("'\(listen)' needs a port after the address: [::1]:8080")
            }
            portText = rest.dropFirst()
        } else if let colon = listen.lastIndex(of: ":") {
            host = String(listen[..<colon])
            portText = listen[listen.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else {
            throw HTTPOptionsError("'\(listen)' is not HOST:PORT (say 127.0.0.1:8080)")
        }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw HTTPOptionsError("'\(listen)' needs a port from 1 to 65535 (say 127.0.0.1:8080)")
        }
        self.host = host
        self.port = port
    }

    /// `HOST:PORT` as it was configured, IPv6 in brackets.
    public var listen: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Whether only this machine can reach it.
    public var isLoopback: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }

    /// The page's address, for the log and the demo.
    public var pageURL: String {
        let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
        return shown.contains(":") ? "http://[\(shown)]:\(port)/" : "http://\(shown):\(port)/"
    }

    /// The page's address for a browser on another machine, where Home Assistant links to it (`configuration_url`):
    /// the listen host when it is loopback or one address, else the first of `hosts`; nil when the page listens on
    /// every address and no name is given, as no address is known to reach it then. Never with the token or the
    /// password: the link is retained on the broker.
    public var linkURL: String? {
        let wildcard = host == "0.0.0.0" || host == "::"
        guard let name = isLoopback || !wildcard ? host : hosts.first else { return nil }
        return name.contains(":") ? "http://[\(name)]:\(port)/" : "http://\(name):\(port)/"
    }

    public var description: String { listen }
}

public struct HTTPOptionsError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
