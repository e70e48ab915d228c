import HTTPTypes
import Hummingbird

/// Lets a request through only with the page's credentials (`PageCredentials`), and makes guessing them slow and
/// seen: a source that keeps getting them wrong is refused with 429 for a while without being checked
/// (`LoginThrottle`), and its failures are logged. A request that logs in tells the connection limits, which then
/// spare its connection while it is served, and once answered leave it to be closed for a newcomer after the
/// connections that did not log in (`ConnectionTable`).
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
            return try await serve(request, context: context, next: next)
        case .busy:
            return Self.refusal(.serviceUnavailable, retryAfter: 1, "busy checking passwords: try again in a second\n")
        case .wrong:
            logins.failed(source)
            return unauthorized
        case .missing:
            return unauthorized
        }
    }

    /// Serves a logged-in request with its connection at work until the response is written. A WebSocket upgrade's
    /// response is never written as a body: the connection becomes the WebSocket, which stays at work (the page's
    /// `onUpgrade` in `LivePageServer` says so too).
    private func serve(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let channel = context.channel
        connections.reached(.authenticated, channel)
        connections.started(channel)
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            connections.finished(channel)
            throw error
        }
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { [connections] writer in
            defer { connections.finished(channel) }
            try await body.write(writer)
        }
        return response
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
