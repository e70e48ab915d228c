import HTTPTypes
import Hummingbird

/// Serves only requests addressed to this gateway by a name it answers to: an IP address, `localhost`, the
/// listen host, or a name in `http.hosts`. A page on any other site whose name an attacker rebinds to
/// 127.0.0.1 (DNS rebinding) sends its own name as Host, and its WebSocket's Origin then matches that Host:
/// without this check it would reach a loopback gateway without credentials and send every command, pair and
/// forget. Checked before everything else, the WebSocket upgrade included.
struct HostGuard<Context: RequestContext>: RouterMiddleware {
    let options: HTTPOptions

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard Self.isAllowed(authority: request.head.authority, options: options) else {
            return Response(
                status: .misdirectedRequest, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(
                    byteBuffer: ByteBuffer(string: "this gateway does not answer to that name: add it to http.hosts\n"))
            )
        }
        return try await next(request, context)
    }

    /// Pure, for tests: whether a request with this Host (`name`, `name:port`, `[v6]:port`) is served.
    static func isAllowed(authority: String?, options: HTTPOptions) -> Bool {
        guard let authority, let host = hostName(authority) else { return false }
        // An address literal cannot be rebound: DNS rebinding needs a name.
        if isIPv4Literal(host) || authority.hasPrefix("[") { return true }
        let allowed = ["localhost", options.host.lowercased()] + options.hosts.map { $0.lowercased() }
        return allowed.contains(host)
    }

    /// The lower-case host of an authority, without its port (and without the dot a fully qualified name may end in).
    static func hostName(_ authority: String) -> String? {
        var host = Substring(authority.lowercased())
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return nil }
            return String(host[...close])
        }
        if let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].allSatisfy(\.isASCIIDigit) else { return nil }
            host = host[..<colon]
        }
        if host.hasSuffix(".") { host = host.dropLast() }
        return host.isEmpty ? nil : String(host)
    }

    /// Four decimal numbers 0–255 separated by dots.
    static func isIPv4Literal(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit)
                    && Int(part).map { $0 <= 255 } == true
            }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
