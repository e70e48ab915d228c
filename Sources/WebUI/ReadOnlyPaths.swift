import HTTPTypes
import Hummingbird

/// The server's paths are read-only: another method on one of them gets `405 Method Not Allowed` with
/// `Allow`, rather than the router's 404, which would say the path does not exist.
struct ReadOnlyPaths<Context: RequestContext>: RouterMiddleware {
    static var paths: Set<String> { ["/", "/metrics", "/live"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard Self.paths.contains(request.uri.path), request.method != .get, request.method != .head else {
            return try await next(request, context)
        }
        return Response(
            status: .methodNotAllowed, headers: [.allow: "GET, HEAD", .contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: "\(request.uri.path) takes GET only\n")))
    }
}
