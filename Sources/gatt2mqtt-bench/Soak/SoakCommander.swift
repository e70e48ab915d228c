import Foundation
import Locks
import MQTT

/// The soak's MQTT client: sends the commands and keeps the books on their answers, and notes when each
/// device's force last arrived. It has a persistent session (clean start off, an hour's session expiry)
/// on a broker with persistence, as a dashboard that must not miss answers would: QoS 1 commands published
/// while the broker is away wait in the client, answers published while the client is away wait in the
/// broker, so every command that is not answered was lost by someone.
final class SoakCommander: Sendable {
    /// A command and when it went out.
    private struct Pending {
        var device: String
        var sent: ContinuousClock.Instant
    }

    private struct Books {
        var next = 0
        var pending: [Int: Pending] = [:]
        /// Answers by outcome: `ok` or the error's code.
        var answered: [String: Int] = [:]
        var answerSeconds: [Double] = []
        /// Answers to no pending command (a duplicate of a QoS 1 redelivery, or a stranger's).
        var unexpected = 0
        var lastForce: [String: ContinuousClock.Instant] = [:]
        var forces = 0
        var lastHealth: String?
    }

    /// The books behind their lock, shared with the task that reads the messages.
    private final class Ledger: Sendable {
        let books = Mutex(Books())
    }

    static let replyPrefix = "reply/soak/"

    private let client: MQTTClient
    private let ledger = Ledger()
    private let consumer: Task<Void, Never>
    private let gateway: String

    init(port: Int, gateway: String) async throws {
        var configuration = MQTTConfiguration(host: "127.0.0.1", port: port, clientID: "soak-commander")
        configuration.cleanStart = false
        configuration.sessionExpiry = 3600
        configuration.incomingBufferSize = 1 << 16
        client = try MQTTClient(configuration: configuration)
        self.gateway = gateway
        let (ledger, messages) = (ledger, client.messages)
        consumer = Task {
            for await message in messages { Self.record(message, in: ledger, gateway: gateway) }
        }
        client.start()
        try await client.connected()
        try client.subscribe(Self.replyPrefix + "#", qos: .atLeastOnce)
        try client.subscribe("a5/+/force", qos: .atMostOnce)
        try client.subscribe("gatt2mqtt/\(gateway)/health", qos: .atLeastOnce)
    }

    private static func record(_ message: MQTTMessage, in ledger: Ledger, gateway: String) {
        let now = ContinuousClock.now
        if message.topic.hasPrefix(replyPrefix) {
            let number = Int(message.topic.dropFirst(replyPrefix.count))
            let text = String(decoding: message.payload, as: UTF8.self)
            let outcome = text.contains(#""ok":true"#) ? "ok" : Self.errorCode(in: text)
            ledger.books.withLock { books in
                guard let number, let pending = books.pending.removeValue(forKey: number) else {
                    books.unexpected += 1
                    return
                }
                books.answered[outcome, default: 0] += 1
                books.answerSeconds.append((now - pending.sent).soakSeconds)
            }
        } else if message.topic.hasSuffix("/force") {
            let device = message.topic.split(separator: "/").dropFirst().first.map(String.init) ?? "?"
            ledger.books.withLock { books in
                books.lastForce[device] = now
                books.forces += 1
            }
        } else if message.topic == "gatt2mqtt/\(gateway)/health" {
            let text = String(decoding: message.payload, as: UTF8.self)
            ledger.books.withLock { $0.lastHealth = text }
        }
    }

    /// The `code` of an error answer, as the bridge writes it (`"code":"not_connected"`).
    private static func errorCode(in text: String) -> String {
        guard let start = text.range(of: #""code":""#) else { return "unreadable answer" }
        return String(text[start.upperBound...].prefix { $0 != "\"" })
    }

    /// Publishes `payload` on `a5/<device>/cmd/<command>` at QoS 1 with an answer topic of its own.
    func send(_ command: String, _ payload: String, to device: String) throws {
        let number = ledger.books.withLock { books in
            books.next += 1
            books.pending[books.next] = Pending(device: device, sent: .now)
            return books.next
        }
        try client.publish(
            MQTTMessage(
                topic: "a5/\(device)/cmd/\(command)", string: payload, qos: .atLeastOnce,
                responseTopic: Self.replyPrefix + "\(number)"))
    }

    var sent: Int { ledger.books.withLock { $0.next } }
    var unanswered: Int { ledger.books.withLock { $0.pending.count } }
    var answered: [String: Int] { ledger.books.withLock { $0.answered } }
    var unexpectedAnswers: Int { ledger.books.withLock { $0.unexpected } }
    var forces: Int { ledger.books.withLock { $0.forces } }
    var lastHealth: String? { ledger.books.withLock { $0.lastHealth } }
    var answerSeconds: [Double] { ledger.books.withLock { $0.answerSeconds } }

    /// Whether every device in `devices` has sent a force value since `instant`.
    func everyForce(of devices: [String], since instant: ContinuousClock.Instant) -> Bool {
        ledger.books.withLock { books in devices.allSatisfy { (books.lastForce[$0] ?? instant) > instant } }
    }

    func stop() async {
        consumer.cancel()
        await client.stop()
    }
}
