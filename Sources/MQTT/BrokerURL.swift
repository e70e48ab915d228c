/// The parts of a broker URL. Kept apart from `MQTTConfiguration` so that the parsing rules,
/// which are what users get wrong, sit in one place.
struct BrokerURL: Equatable {
    var host: String
    var port: Int
    var tls: Bool

    init(parsing url: String) throws {
        // The URL as an error shows it: a password written into it never reaches a log or a terminal.
        let shown = Self.withoutCredentials(url)
        func fail(_ reason: String) -> MQTTError { .invalidURL(shown, reason: reason) }

        guard let separator = url.firstRange(of: "://") else {
            throw fail("expected mqtt://HOST:PORT or mqtts://HOST:PORT")
        }
        switch url[..<separator.lowerBound].lowercased() {
        case "mqtt": tls = false
        case "mqtts": tls = true
        case let other: throw fail("unsupported scheme '\(other)' (use mqtt or mqtts)")
        }
        var authority = url[separator.upperBound...]
        // One trailing slash is what people paste; anything more would be silently ignored.
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        if authority.contains("@") {
            throw fail("only HOST[:PORT] may follow the scheme: the user name and password are settings of their own")
        }
        if authority.contains(where: { "/?#".contains($0) }) {
            throw fail("only HOST[:PORT] may follow the scheme (no path, query, or credentials)")
        }

        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw fail("unterminated IPv6 address") }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            if rest.isEmpty {
                portText = nil
            } else if rest.hasPrefix(":") {
                portText = rest.dropFirst()
            } else {
                throw fail("unexpected '\(rest)' after the IPv6 address")
            }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw fail("too many ':' (put IPv6 addresses in brackets)") }
            host = String(parts[0])
            portText = parts.count == 2 ? parts[1] : nil
        }
        guard !host.isEmpty else { throw fail("missing host") }

        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else {
                throw fail("port must be a number from 1 to 65535")
            }
            port = value
        } else {
            port = tls ? 8883 : 1883
        }
    }

    /// `url` with whatever precedes its last `@` after the scheme (`user:password`) as `***`: a password may hold
    /// any character, `/`, `?`, `#` and `@` included, so only the last `@` surely ends it.
    static func withoutCredentials(_ url: String) -> String {
        guard let separator = url.firstRange(of: "://"), let at = url.lastIndex(of: "@"), at > separator.upperBound
        else { return url }
        return url[..<separator.upperBound] + "***" + url[at...]
    }
}
