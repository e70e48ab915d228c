import NIOCore

/// Who a connection comes from, as the live page's limits count it: an IPv4 address, or an IPv6 address's
/// /64 network (one host is usually given a whole /64, so counting single IPv6 addresses would let one
/// attacker be thousands of sources).
struct SourceAddress: Hashable, Sendable, CustomStringConvertible {
    let description: String

    /// A source named by text, for tests and for a socket with no IP address (shared as one source).
    init(_ text: String) { description = Self.escaped(text) }

    init(_ address: SocketAddress?) {
        switch address {
        case .v4?:
            self.init(address?.ipAddress ?? "unknown")
        case .v6(let v6)?:
            // sin6_addr's first eight bytes: the network, without the interface identifier.
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0.prefix(8)) }
            let groups = stride(from: 0, to: 8, by: 2).map {
                String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
            }
            self.init(groups.joined(separator: ":") + "::/64")
        default:
            self.init("unknown")
        }
    }

    /// Printable ASCII only, the rest as `\u{…}`: the text goes into the log, and nothing in it should forge a line.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII, scalar.value >= 0x20, scalar.value < 0x7F, scalar != "\\" {
                escaped.unicodeScalars.append(scalar)
            } else {
                escaped += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return escaped
    }
}
