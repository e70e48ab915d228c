import Bridge
import Locks
import Logging
import MQTT

/// The broker as the live page sees it: a client of its own subscribed to every gateway's and every
/// device's topics, so the page shows the whole fleet on the broker, whichever gateway holds a device.
/// It keeps the last value of each topic for pages that connect later (and the last lines of the gateways' logs,
/// which are events, not values) and fans live messages out to the pages connected now. It never touches the
/// bridge's own client or its hot path.
final class TopicMirror: Sendable {
    /// One topic's value, its topic without the base topic.
    struct Entry: Sendable, Equatable {
        var topic: String
        var payload: String
        var retained: Bool
    }

    private struct State {
        var last: [String: Entry] = [:]
        /// The gateways' log lines, oldest first: a page opened after a warning still shows it.
        var logLines: [Entry] = []
        var pages: [Int: AsyncStream<Entry>.Continuation] = [:]
        var warnedFull = false
    }

    /// Beyond this many topics new ones are passed on live but not kept.
    static let topicLimit = 20_000
    /// The log lines kept for pages that connect later, over all gateways (each at most 4 KiB of message).
    static let logLineLimit = 100
    /// A page that falls this far behind loses its oldest messages, not the server's memory.
    static let pageBuffer = 4_096
    /// A payload larger than this is neither parsed nor kept: the page shows its size instead. Far above any
    /// gatt2mqtt payload; what other clients put on the broker must not fill this server's memory.
    static let payloadLimit = 16 * 1024

    let client: MQTTClient
    /// This gateway's topics, and with them the base topic every topic here is under.
    let topics: TopicMap
    var baseTopic: String { topics.baseTopic }
    /// Where MQTT 5 replies to the page's frames come back (with their correlation data).
    let replyTopic: String
    private let usesResponseTopics: Bool
    private let waiters = ReplyWaiters()
    private let state = Mutex(State())
    private let logger: Logger

    /// `families`: those the page shows (the gateway's, written and declared).
    init(
        mqtt configuration: MQTTConfiguration, gateway: String, baseTopic: String,
        families: [DeviceFamily] = DeviceFamily.allCases, logger: Logger
    ) throws {
        var configuration = configuration
        // A client of its own, with no session or will: the bridge's client and its status stay its own.
        configuration.clientID = "\(gateway)-live-\(MQTTConfiguration.randomClientID().suffix(8))"
        configuration.cleanStart = true
        configuration.sessionExpiry = nil
        configuration.will = nil
        client = try MQTTClient(configuration: configuration, logger: Logger(label: LivePageServer.brokerLogLabel))
        topics = TopicMap(gateway: gateway, baseTopic: baseTopic, families: families)
        replyTopic = topics.gatewayTopic("live/\(configuration.clientID)/reply")
        usesResponseTopics = configuration.protocolVersion == .v5
        self.logger = logger
    }

    /// The filters: every gateway's own topics but claims, and every device topic one level deep (not
    /// `cmd/…`).
    var filters: [String] {
        let gateway = [
            "status", "info", "adapter", "adapter/+", "health", "devices", "scan", "permit_join", "log", "response/+",
        ].map(topics.everyGateway)
        let devices = topics.families.map { topics.leafFilter($0, "+") }
        return gateway + devices + (usesResponseTopics ? [replyTopic] : [])
    }

    /// Runs until cancelled.
    func run() async {
        client.start()
        do {
            for filter in filters { try client.subscribe(filter, qos: .atMostOnce) }
        } catch {
            logger.error("live page: cannot subscribe: \(error)")
        }
        await withTaskCancellationHandler {
            for await message in client.messages { receive(message) }
        } onCancel: {
            state.withLock { state in
                for page in state.pages.values { page.finish() }
                state.pages = [:]
            }
        }
        await client.stop()
    }

    /// One message from the broker (internal for the tests, which hand messages in without a broker).
    func receive(_ message: MQTTMessage) {
        let payload =
            message.payload.count <= Self.payloadLimit
            ? String(decoding: message.payload, as: UTF8.self) : "(\(message.payload.count) bytes, not shown)"

        if message.topic == replyTopic {
            if let correlation = message.correlationData {
                waiters.deliver(payload, to: .correlation(String(decoding: correlation, as: UTF8.self)))
            }
            return
        }
        guard let topic = topics.withoutBase(message.topic) else { return }
        if !usesResponseTopics, let name = Self.answeredName(payload) {
            waiters.deliver(payload, to: .plain(topic: message.topic, name: name))
        }
        let entry = Entry(topic: topic, payload: payload, retained: message.retain)
        let isLog = topics.parseGatewayLeaf(message.topic, "log") != nil
        let pages = state.withLock { state -> [AsyncStream<Entry>.Continuation] in
            if isLog {
                if !payload.isEmpty { state.logLines.append(entry) }
                if state.logLines.count > Self.logLineLimit { state.logLines.removeFirst() }
            } else if payload.isEmpty {
                state.last[topic] = nil
            } else if state.last[topic] != nil || state.last.count < Self.topicLimit {
                state.last[topic] = entry
            } else if !state.warnedFull {
                state.warnedFull = true
                logger.warning("live page: more than \(Self.topicLimit) topics; later ones are shown live only")
            }
            return Array(state.pages.values)
        }
        for page in pages { page.yield(entry) }
    }

    /// The `command` or `request` a bridge reply names.
    private static func answeredName(_ payload: String) -> String? {
        guard payload.hasPrefix("{"), case .object(let object)? = JSONValue.parse(Array(payload.utf8)) else {
            return nil
        }
        return (object["command"] ?? object["request"])?.string
    }

    /// A page's view: what is known now (sorted by topic, then the log lines kept), then every message as it comes.
    func attach() -> (id: Int, snapshot: [Entry], live: AsyncStream<Entry>) {
        let id = waiters.nextNumber()
        let (stream, continuation) = AsyncStream.makeStream(
            of: Entry.self, bufferingPolicy: .bufferingNewest(Self.pageBuffer))
        let snapshot = state.withLock { state in
            state.pages[id] = continuation
            return state.last.values.sorted { $0.topic < $1.topic } + state.logLines
        }
        return (id, snapshot, stream)
    }

    func detach(_ id: Int) {
        state.withLock { $0.pages.removeValue(forKey: id) }?.finish()
    }

    /// Publishes a page's command or request as any MQTT client would, and waits for the bridge's reply.
    func send(_ request: PageRequest, timeout: Duration = .seconds(20)) async throws(PageRequestError) -> (
        topic: String, payload: String
    ) {
        let topic = request.topic(in: topics)
        let correlation = String(waiters.nextNumber())
        let key: ReplyWaiters.Key =
            usesResponseTopics
            ? .correlation(correlation) : .plain(topic: request.plainReplyTopic(in: topics), name: request.name)
        let reply: String?
        do {
            reply = try await waiters.wait(for: key, timeout: timeout) {
                try client.publish(
                    MQTTMessage(
                        topic: topic, payload: Array(request.payload.utf8), qos: .atLeastOnce, retain: false,
                        responseTopic: usesResponseTopics ? replyTopic : nil,
                        correlationData: usesResponseTopics ? Array(correlation.utf8) : nil))
            }
        } catch {
            throw PageRequestError(id: request.id, "not sent: \(error)")
        }
        guard let reply else {
            throw PageRequestError(id: request.id, "no reply within \(timeout); is a gateway serving it?")
        }
        return (topics.withoutBase(topic) ?? topic, reply)
    }
}
