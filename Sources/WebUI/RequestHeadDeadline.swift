import NIOCore

/// Closes a connection whose first request head is not complete within `seconds` (a slow or silent client,
/// slowloris): until then the upgrade pipeline has no time-out of its own, and each such connection would hold
/// one of the server's connection slots (`http.max_connections`) for as long as the client likes. It sits next to
/// the socket and reads raw bytes: the head is complete at its first empty line, after which it tells `onHead` (the
/// connection limits spare such a connection before a silent one) and only passes bytes on.
final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let seconds: Int64
    private let onHead: @Sendable (any Channel) -> Void
    private var deadline: Scheduled<Void>?
    /// The last three bytes seen, to find "\r\n\r\n" across reads.
    private var tail: [UInt8] = []

    init(seconds: Int64, onHead: @escaping @Sendable (any Channel) -> Void = { _ in }) {
        self.seconds = seconds
        self.onHead = onHead
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: .seconds(seconds)) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if deadline != nil {
            let joined = tail + Array(unwrapInboundIn(data).readableBytesView)
            if Self.containsHeadEnd(joined) {
                deadline?.cancel()
                deadline = nil
                tail = []
                onHead(context.channel)
            } else {
                tail = Array(joined.suffix(3))
            }
        }
        context.fireChannelRead(data)
    }

    /// Whether `bytes` hold "\r\n\r\n", the empty line that ends a request head.
    static func containsHeadEnd(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4 else { return false }
        return (0...(bytes.count - 4)).contains {
            bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
        }
    }
}
