import Locks
import Logging
import MQTT

/// Commands from the broker to their devices: checked on the receive path (size, family, parse,
/// repeat, rate) so that only a valid command for a known device is queued, then run one at a time on
/// the device's own queue and answered once. A command that opted into waiting (an MQTT 5 message
/// expiry) waits for its device to connect.
final class CommandRouter: Sendable {
    /// One command waiting for its device.
    struct Queued: Sendable {
        var command: ParsedCommand
        var transaction: JSONValue?
        var request: MQTTMessage
        var received = ContinuousClock.now
    }

    private struct State {
        var rateLimiter: CommandRateLimiter
        /// Recent command identities, to run a QoS 1 redelivery once.
        var recentCommands = CommandDeduplicator()
    }

    private let state: Mutex<State>
    private let drivers: [any FamilyDriver]
    private let publisher: BrokerPublisher
    private let logger: Logger
    private let payloadSizeLimit: Int
    private let commandsPerSecond: Double

    init(
        drivers: [any FamilyDriver], publisher: BrokerPublisher, logger: Logger, payloadSizeLimit: Int,
        commandRate: (perSecond: Double, burst: Double)
    ) {
        self.drivers = drivers
        self.publisher = publisher
        self.logger = logger
        self.payloadSizeLimit = payloadSizeLimit
        commandsPerSecond = commandRate.perSecond
        state = Mutex(
            State(rateLimiter: CommandRateLimiter(perSecond: commandRate.perSecond, burst: commandRate.burst)))
    }

    /// How many commands may wait in one device's queue; more are refused (`rate_limited`). The rate limit alone
    /// does not bound it: commands that wait for their device (a message expiry) hold the queue meanwhile. Room
    /// for what a broker delivers at once after a reconnect (it queued them while the gateway was away).
    static let queueLimit = 1024
    /// The rate limiter's key for every device without a session (not a device id: ids have no `*`).
    static let withoutSessionKey = "*"
    /// The longest a command waits for its device, whatever message expiry its sender gave (up to 2^32 s).
    static let longestWait = Duration.seconds(300)

    /// Until when a command received at `received` with an MQTT 5 message expiry of `messageExpiry` seconds waits
    /// for its device: the expiry, at most `longestWait`.
    static func waitDeadline(received: ContinuousClock.Instant, messageExpiry: UInt32) -> ContinuousClock.Instant {
        received + min(.seconds(Int(messageExpiry)), longestWait)
    }

    /// A new device's command queue: ``execute(_:on:path:)`` reads it for as long as the session runs.
    func makeQueue() -> (AsyncStream<Queued>, AsyncStream<Queued>.Continuation) {
        AsyncStream<Queued>.makeStream(bufferingPolicy: .bufferingOldest(Self.queueLimit))
    }

    /// Checks a command on the receive path and queues it for its device (`queue`, nil without a session);
    /// a device without a session is answered here when `answersWithoutSession` says this gateway answers
    /// for it (a fleet leaves it to the owner). Every refusal is answered on the reply topic.
    func route(
        _ message: MQTTMessage, family: DeviceFamily, id: String, name: String,
        queue: () -> AsyncStream<Queued>.Continuation?, answersWithoutSession: () -> Bool
    ) {
        let received = ContinuousClock.now
        if message.retain {
            refuseRetained(
                message, family: family, id: id, name: name, received: received,
                answered: queue() != nil || answersWithoutSession())
            return
        }
        var transaction: JSONValue?
        do throws(CommandError) {
            let payload = try CommandPayload(bytes: message.payload, sizeLimit: payloadSizeLimit)
            transaction = payload.transaction
            guard let driver = drivers.first(where: { $0.family == family }) else {
                throw CommandError(.unknownCommand, "this gateway serves no \(family.rawValue) devices")
            }
            let command = try driver.parse(command: name, payload: payload)
            if let key = CommandDeduplicator.key(
                topic: message.topic, transaction: payload.transaction, correlationData: message.correlationData),
                state.withLock({ $0.recentCommands.isRepeat(key, at: .now) })
            {
                logger.info("repeated command ignored (same transaction)", metadata: ["topic": "\(message.topic)"])
                return
            }
            guard let queue = queue() else {
                guard answersWithoutSession() else {
                    logger.debug(
                        "command left to the fleet gateway that answers for the device",
                        metadata: ["topic": "\(message.topic)"])
                    return
                }
                // Commands for devices without a session share one bucket: a flood to ever new ids is refused too.
                guard state.withLock({ $0.rateLimiter.admit(Self.withoutSessionKey, at: .now) }) else {
                    throw CommandError(
                        .rateLimited,
                        "more than \(commandsPerSecond) commands per second for devices this gateway does not serve")
                }
                var reply = CommandReply(command: name, transaction: transaction)
                reply.data = try command.executeWithoutSession(id: id, publisher: publisher)
                publisher.reply(reply, to: message, family: family, id: id, received: received)
                return
            }
            guard state.withLock({ $0.rateLimiter.admit("\(family.rawValue)/\(id)", at: .now) }) else {
                throw CommandError(
                    .rateLimited, "more than \(commandsPerSecond) commands per second for \(family.rawValue) \(id)")
            }
            if case .dropped = queue.yield(
                Queued(command: command, transaction: transaction, request: message, received: received))
            {
                throw CommandError(
                    .rateLimited, "\(Self.queueLimit) commands already wait for \(family.rawValue) \(id)")
            }
        } catch {
            publisher.reply(
                CommandReply(command: name, error: error, transaction: transaction), to: message, family: family,
                id: id, received: received)
        }
    }

    /// A retained command is never run: the broker's store delivers it at every start and every reconnect, long after
    /// whoever sent it meant it (or by mistake: a "retain" box ticked in an MQTT tool). The gateway that answers for
    /// the device (`answered`: it serves it, or answers for devices nobody serves) says `retained` and clears it;
    /// in a fleet the others leave it to that one.
    private func refuseRetained(
        _ message: MQTTMessage, family: DeviceFamily, id: String, name: String, received: ContinuousClock.Instant,
        answered: Bool
    ) {
        // An empty retained message deletes one; no broker delivers it as retained, and it asks for nothing.
        guard answered, !message.payload.isEmpty else { return }
        let transaction = (try? CommandPayload(bytes: message.payload, sizeLimit: payloadSizeLimit))?.transaction
        publisher.clearRetained(message.topic)
        publisher.reply(
            CommandReply(command: name, error: .retainedRefusal(of: "command"), transaction: transaction), to: message,
            family: family, id: id, received: received)
    }

    /// Runs a device's commands one at a time and answers each; a command that opted into waiting for its device
    /// waits on the device's connection record, which its session sets.
    func execute(_ commands: AsyncStream<Queued>, on session: any DeviceSession, connection: ConnectionRecord) async {
        for await queued in commands {
            var reply = CommandReply(command: queued.command.name, transaction: queued.transaction)
            do {
                reply.data = try await queued.command.execute(on: session)
            } catch  where error.code == .notConnected && queued.request.messageExpiry != nil {
                // The sender opted into waiting: an MQTT 5 message expiry says how long the command stays good.
                let deadline = Self.waitDeadline(
                    received: queued.received, messageExpiry: queued.request.messageExpiry ?? 0)
                if await connection.waitUntilConnected(until: deadline) {
                    do {
                        reply.data = try await queued.command.execute(on: session)
                    } catch {
                        reply.error = error
                    }
                } else {
                    reply.error = CommandError(.expired, "the device did not connect before the command expired")
                }
            } catch {
                reply.error = error
            }
            publisher.reply(
                reply, to: queued.request, family: session.family, id: session.id, received: queued.received)
        }
    }
}
