#if canImport(Glibc)
    import Glibc
#endif

/// Where `NOTIFY_SOCKET` points: a socket file (`/run/systemd/notify`) or, when it starts with `@`,
/// a name in the abstract namespace (sd_notify(3)). Checked as systemd's own `sockaddr_un_set_path` does.
struct NotifySocketAddress: Sendable, Equatable, CustomStringConvertible {
    /// What goes into `sun_path`: the path, or a NUL followed by the abstract name.
    let pathBytes: [UInt8]
    /// The address as `NOTIFY_SOCKET` spelled it.
    let description: String

    /// The room in `sockaddr_un.sun_path` (108 bytes on Linux).
    static let pathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    init(_ value: String) throws(SystemdNotifierError) {
        let bytes = Array(value.utf8)
        guard bytes.count >= 2, bytes.first == UInt8(ascii: "/") || bytes.first == UInt8(ascii: "@") else {
            throw .unsupportedSocketAddress(value)
        }
        guard !bytes.contains(0) else { throw .unsupportedSocketAddress(value) }
        if bytes[0] == UInt8(ascii: "@") {
            // An abstract name is exactly its bytes: no NUL terminator, so it may fill all of sun_path.
            guard bytes.count <= Self.pathCapacity else { throw .socketAddressTooLong(value) }
            pathBytes = [0] + bytes.dropFirst()
        } else {
            // A file path needs room for its NUL terminator.
            guard bytes.count < Self.pathCapacity else { throw .socketAddressTooLong(value) }
            pathBytes = bytes
        }
        description = value
    }

    var isAbstract: Bool { pathBytes.first == 0 }

    /// Calls `body` with the socket address and its length: a path's length counts its NUL,
    /// an abstract name's must not (the kernel would take the NUL as part of the name).
    func withSocketAddress<Result>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) -> Result
    ) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: pathBytes)
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        let length = pathOffset + pathBytes.count + (isAbstract ? 0 : 1)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }
}
