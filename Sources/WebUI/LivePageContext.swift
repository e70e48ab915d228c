import Hummingbird
import HummingbirdWebSocket
import NIOCore

/// The live page's request context: Hummingbird's WebSocket context, plus the connection a request came on,
/// which the access guard needs for the client's address (failed logins are counted per source) and to tell the
/// connection limits that a connection has logged in.
struct LivePageContext: RequestContext, WebSocketRequestContext {
    var coreContext: CoreRequestContextStorage
    let webSocket: WebSocketHandlerReference<Self>
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        channel = source.channel
    }
}
