import Bridge
import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import MQTT
import NIOPosix
import ServiceLifecycle

/// The daemon's optional HTTP server (`--http`): the live page at `/`, its WebSocket at `/live`, and
/// `/metrics`. Off by default, on loopback unless configured otherwise, behind `HostGuard` and `AccessGuard`.
public struct LivePageServer: Service {
    /// The label of the page's own broker client's logger: its lines never go to the gateway's log topic, which
    /// the page also reads (a line about each message it reads would make a message to read).
    public static let brokerLogLabel = "gatt2mqtt.live.mqtt"

    let options: HTTPOptions
    let mirror: TopicMirror
    let catalogue: [DeviceFamily: [CommandExample]]
    let cards: [DeviceFamily: LivePageCard]
    let metrics: MetricsEndpoint?
    let logger: Logger

    public init(
        options: HTTPOptions, mqtt: MQTTConfiguration, gateway: String, baseTopic: String,
        catalogue: [DeviceFamily: [CommandExample]], cards: [DeviceFamily: LivePageCard], metrics: MetricsEndpoint?,
        logger: Logger
    ) throws {
        self.options = options
        mirror = try TopicMirror(
            mqtt: mqtt, gateway: gateway, baseTopic: baseTopic,
            families: cards.keys.sorted { $0.rawValue < $1.rawValue }, logger: logger)
        self.catalogue = catalogue
        self.cards = cards
        self.metrics = metrics
        self.logger = logger
    }

    /// Serves until the task is cancelled.
    public func run() async throws {
        // One event loop for the page and every connection to it: a page needs no more, and ConnectionGate then asks
        // the kernel about any connection (BytesReceived) on the loop it is on, at once.
        let loop = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let connections = ConnectionGate(
            maxTotal: options.maxConnections, maxPerSource: options.maxConnectionsPerSource, logger: logger)
        let router = Router(context: LivePageContext.self)
        router.add(middleware: HostGuard(options: options))
        router.add(middleware: ReadOnlyPaths())
        router.add(
            middleware: AccessGuard(
                credentials: PageCredentials(options: options), logins: FailedLogins(logger: logger),
                connections: connections))
        router.get("/") { _, _ in Self.page }
        router.get("/metrics") { _, _ in
            guard let metrics else { throw HTTPError(.notFound, message: "metrics are off") }
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.render())))
        }
        router.ws("/live") { request, _ in
            try Self.checkUpgrade(request)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            // A page's WebSocket is at work for as long as it is open: never closed for a newcomer.
            connections.started(context.requestContext.channel)
            try await serve(inbound: inbound, outbound: outbound)
        }
        let webSocketResponder = router.buildResponder()
        let app = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                // A connection that has not sent a whole request head within 10 s (a slow or silent client), or stays
                // idle that long between requests, is closed; before that, the connection limits close idle strangers
                // to make room for newcomers (ConnectionGate).
                GuardedUpgradeChannel(
                    inner: HTTP1WebSocketUpgradeChannel(
                        responder: responder, webSocketResponder: webSocketResponder,
                        configuration: .init(
                            http1: .init(idleTimeout: .seconds(Self.idleSeconds)), ws: .init(maxFrameSize: 64 * 1024))),
                    gate: connections)
            },
            // No availableConnectionsDelegate: at its limit it stops accepting, and newcomers then wait in the kernel's
            // backlog behind idle strangers until those time out (38.5 s behind 300 of them). ConnectionGate keeps the
            // limit instead, and lets newcomers in.
            // The backlog holds connections the kernel has completed and the server not yet accepted. At Hummingbird's
            // 256, a few hundred strangers reopening connections as fast as they are closed keep it full, and a
            // newcomer's SYN is dropped and retried a second later; 4096 (the kernel's usual cap, somaxconn) holds them.
            configuration: .init(
                address: .hostname(options.host, port: options.port), serverName: "gatt2mqtt", backlog: 4096),
            onServerRunning: { [logger, options] _ in
                logger.notice("live page on \(options.pageURL)", metadata: ["listen": "\(options.listen)"])
            },
            eventLoopGroupProvider: .shared(loop),
            logger: logger)
        do {
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { await mirror.run() }
                try await app.run()
                group.cancelAll()
            }
        } catch {
            try? await loop.shutdownGracefully()
            throw error
        }
        try await loop.shutdownGracefully()
    }

    /// How long a connection may take to send a request head, or stay idle between requests, in seconds.
    static let idleSeconds: Int64 = 10
    /// How many of one page's frames may wait for their replies at once.
    static let framesInFlight = 16

    /// The page, with headers that keep it to itself: no caching, no framing, nothing loaded from elsewhere.
    static var page: Response {
        Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy:
                    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; frame-ancestors 'none'",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: PackageResources.live_html)))
    }

    /// Only a real WebSocket handshake from this server's own page upgrades: another site open in the same
    /// browser must not reach a loopback gateway and send commands (cross-site WebSocket hijacking).
    static func checkUpgrade(_ request: Request) throws {
        guard request.headers[.upgrade]?.lowercased() == "websocket" else {
            throw HTTPError(
                HTTPResponse.Status(code: 426, reasonPhrase: "Upgrade Required"), message: "/live is a WebSocket")
        }
        if let origin = request.headers[.origin], !isSameOrigin(origin, host: request.head.authority) {
            throw HTTPError(.forbidden, message: "the WebSocket serves this server's own page only (Origin \(origin))")
        }
    }

    /// Whether `origin` (`http://host:port`) is this server's own: the host the request was sent to, over plain HTTP,
    /// the only scheme the page is served on. An `https://` page on the same host and port is another site's (a
    /// different origin), and so is one on another port. Scheme and host in any case, as browsers compare them.
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host else { return false }
        return origin.lowercased() == "http://" + host.lowercased()
    }

    /// One page's WebSocket: hello, what is known, then live messages; its commands run side by side.
    private func serve(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let (id, snapshot, live) = mirror.attach()
        defer { mirror.detach(id) }
        try await outbound.write(
            .text(LiveFrame.hello(baseTopic: mirror.baseTopic, catalogue: catalogue, cards: cards)))
        for entry in snapshot { try await outbound.write(.text(LiveFrame.message(entry))) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for await entry in live { try await outbound.write(.text(LiveFrame.message(entry))) }
            }
            group.addTask {
                let slots = InFlightLimit(Self.framesInFlight)
                try await withThrowingDiscardingTaskGroup { requests in
                    for try await message in inbound.messages(maxSize: 64 * 1024) {
                        guard case .text(let text) = message else {
                            try await outbound.write(
                                .text(LiveFrame.error(id: nil, message: "frames must be JSON text")))
                            continue
                        }
                        guard slots.take() else {
                            try await outbound.write(
                                .text(
                                    LiveFrame.error(
                                        id: nil,
                                        message:
                                            "\(Self.framesInFlight) frames are waiting for replies already: wait for one"
                                    )))
                            continue
                        }
                        requests.addTask {
                            defer { slots.give() }
                            try await answer(text, outbound: outbound)
                        }
                    }
                }
            }
            // The page closed (or the server stops): end the live feed too.
            try await group.next()
            group.cancelAll()
        }
    }

    private func answer(_ text: String, outbound: WebSocketOutboundWriter) async throws {
        try await outbound.write(.text(await frame(answering: text)))
    }

    /// The `reply` to one page frame, or the `error` that says why it was not sent or not answered.
    private func frame(answering text: String) async -> String {
        do throws(PageRequestError) {
            let request = try PageRequest(frame: text, catalogue: catalogue)
            logger.info("live page sends", metadata: ["topic": "\(request.topic(in: mirror.topics))"])
            let reply = try await mirror.send(request)
            return LiveFrame.reply(id: request.id, topic: reply.topic, payload: reply.payload)
        } catch {
            logger.warning("live page frame refused", metadata: ["reason": "\(error.message)"])
            return LiveFrame.error(id: error.id, message: error.message)
        }
    }
}
