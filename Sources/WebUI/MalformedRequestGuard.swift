import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// HTTP1WebSocketUpgradeChannel with three fixes: a new connection passes the connection limits (`ConnectionGate`),
/// which may close an idle one to make room for it; a first request head that takes too long closes the connection
/// (`RequestHeadDeadline`), and a request NIO's HTTP decoder cannot parse gets
/// `400 Bad Request` and the connection closes. Unwrapped, the upgrade channel leaves the error to a
/// handler it disables, so a malformed request holds its connection (and one of the server's connection
/// slots) open, unanswered, for as long as the client likes.
struct GuardedUpgradeChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let gate: ConnectionGate

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        gate.admit(channel)
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { [gate] value in
            let socketEnd = SocketEnd()
            try channel.pipeline.syncOperations.addHandler(socketEnd, position: .first)
            let deadline = RequestHeadDeadline(seconds: LivePageServer.idleSeconds) {
                gate.reached(.unauthenticated, $0)
            }
            try channel.pipeline.syncOperations.addHandler(deadline, position: .first)
            try channel.pipeline.syncOperations.addHandler(MalformedRequestGuard(socketEnd: socketEnd, logger: logger))
            return value
        }
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

/// Sits next to the socket, so that bytes written from its context pass no HTTP encoder.
private final class SocketEnd: ChannelOutboundHandler, Sendable {
    typealias OutboundIn = NIOAny
}

/// At the end of the pipeline: turns the HTTP decoder's error into a 400 written straight to the socket.
private final class MalformedRequestGuard: ChannelInboundHandler, Sendable {
    typealias InboundIn = NIOAny
    let socketEnd: SocketEnd
    let logger: Logger

    init(socketEnd: SocketEnd, logger: Logger) {
        self.socketEnd = socketEnd
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard error is HTTPParserError || error is ByteToMessageDecoderError else {
            context.fireErrorCaught(error)
            return
        }
        logger.notice("malformed HTTP request refused", metadata: ["error": "\(error)"])
        let response =
            "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 24\r\nConnection: close\r\n\r\nmalformed HTTP request.\n"
        let channel = context.channel
        guard let front = try? channel.pipeline.syncOperations.context(handler: socketEnd) else {
            context.close(promise: nil)
            return
        }
        front.writeAndFlush(NIOAny(channel.allocator.buffer(string: response))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }
}
