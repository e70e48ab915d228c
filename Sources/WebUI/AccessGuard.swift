#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import HTTPTypes
import Hummingbird

/// Lets a request through only with the configured credentials: basic authentication, or the token as
/// `Authorization: Bearer …` or `?token=…` (a browser's WebSocket cannot set headers). With neither
/// configured, everything passes: the server listens on loopback unless told otherwise.
struct AccessGuard<Context: RequestContext>: RouterMiddleware {
    let options: HTTPOptions

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.isAllowed(
            authorization: request.headers[.authorization], queryToken: request.uri.queryParameters.get("token"), options: options)
        else {
            var headers = HTTPFields()
            if options.username != nil { headers[.wwwAuthenticate] = #"Basic realm="gatt2mqtt", charset="UTF-8""# }
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(status: .unauthorized, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "credentials needed\n")))
        }
        return try await next(request, context)
    }

    /// Pure, for tests: whether these credentials open the server.
    static func isAllowed(authorization: String?, queryToken: String?, options: HTTPOptions) -> Bool {
        let basic = options.username.flatMap { user in options.password.map { (user, $0) } }
        if basic == nil && options.token == nil { return true }
        if let token = options.token {
            if let queryToken, constantTimeEqual(queryToken, token) { return true }
            if let authorization, authorization.hasPrefix("Bearer "), constantTimeEqual(String(authorization.dropFirst(7)), token) { return true }
        }
        if let (user, password) = basic, let authorization, authorization.hasPrefix("Basic "),
            let decoded = Data(base64Encoded: String(authorization.dropFirst(6))).map({ String(decoding: $0, as: UTF8.self) })
        {
            return constantTimeEqual(decoded, "\(user):\(password)")
        }
        return false
    }

    /// Compares without stopping at the first difference, so timing tells nothing of a secret.
    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }
}
