import HTTPTypes
import Hummingbird

/// Lets a request through only with the page's credentials (`PageCredentials`), and makes guessing them slow and
/// seen: a source that keeps getting them wrong is refused with 429 for a while without being checked
/// (`LoginThrottle`), and its failures are logged. A request that logs in tells the connection limits, which then
/// spare its connection.
struct AccessGuard: RouterMiddleware {
    typealias Context = LivePageContext
    let credentials: PageCredentials
    let logins: FailedLogins
    let connections: ConnectionGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let source = SourceAddress(context.channel.remoteAddress)
        if case .refuse(let retryAfter) = logins.verdict(for: source) {
            return Self.refusal(
                .tooManyRequests, retryAfter: FailedLogins.seconds(retryAfter),
                "too many wrong credentials: try again later\n")
        }
        switch await credentials.check(
            authorization: request.headers[.authorization], queryToken: request.uri.queryParameters.get("token"))
        {
        case .allowed:
            if credentials.isRequired { logins.succeeded(source) }
            connections.reached(.authenticated, context.channel)
            return try await next(request, context)
        case .busy:
            return Self.refusal(.serviceUnavailable, retryAfter: 1, "busy checking passwords: try again in a second\n")
        case .wrong:
            logins.failed(source)
            return unauthorized
        case .missing:
            return unauthorized
        }
    }

    private var unauthorized: Response {
        var headers = HTTPFields()
        if credentials.username != nil { headers[.wwwAuthenticate] = #"Basic realm="gatt2mqtt", charset="UTF-8""# }
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(
            status: .unauthorized, headers: headers, body: .init(byteBuffer: ByteBuffer(string: "credentials needed\n"))
        )
    }

    private static func refusal(_ status: HTTPResponse.Status, retryAfter: Int64, _ text: String) -> Response {
        Response(
            status: status, headers: [.retryAfter: "\(retryAfter)", .contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
