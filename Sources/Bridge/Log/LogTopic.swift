import DequeModule
import Locks
import Logging
import MQTT

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// `gatt2mqtt/<gateway>/log`: the gateway's log lines at or above `log_level_mqtt`, so that whoever runs a fleet
/// from the broker sees every gateway's warnings (`gatt2mqtt/+/log`) without a shell on each. The daemon's log
/// handlers offer the lines (through `DaemonLogging.LogTap`, which chose, escaped and cut them); this queues them and
/// `LogTopicService` publishes them, not retained, at QoS 0.
///
/// Bounded whatever happens:
/// - **Rate.** Per level, at most `burst` lines in each `period` (20 a minute), by the rule the journal's warnings
///   follow (`WarningLimiter`): a flood of warnings cannot crowd out an error. The next line of that level says how
///   many were left out (`dropped`).
/// - **Waiting.** At most `capacity` (32) lines wait for the broker: before the first connection and while it is
///   away. They are published once it is back, oldest first; lines beyond them are left out and counted in the next
///   line that goes.
/// - **No recursion.** A line logged while a line is being published (by the broker client, on the publishing
///   task) is not taken; the MQTT clients' own lines never reach the tap (`Bridge.brokerLogLabel`).
public final class LogTopic: Sendable {
    private struct State {
        var waiting: Deque<LogTopicLine> = []
        /// Per level, lines left out since the last one of that level was queued (a full queue, a failed publish).
        var dropped: [Logger.Level: Int] = [:]
    }

    /// Lines that wait for the broker, at most.
    static let capacity = 32

    let topic: String
    private let limiter: WarningLimiter
    private let state = Mutex(State())
    /// Rung for every line queued; the service publishes what waits at each ring.
    let doorbell: AsyncStream<Void>
    private let ring: AsyncStream<Void>.Continuation

    /// True on the task that publishes a line, for as long as it does: whatever is logged there meanwhile is not
    /// taken, so a line never begets another.
    @TaskLocal static var isPublishing = false

    init(topic: String, burst: Int = 20, period: Duration = .seconds(60)) {
        self.topic = topic
        limiter = WarningLimiter(burst: burst, period: period)
        // One ring waiting is enough: the service takes every line that waits when it answers.
        (doorbell, ring) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Takes a line the log tap passed on: queued for the broker, or counted as left out.
    public func offer(level: Logger.Level, label: String, message: String, metadata: [String: String]) {
        offer(LogTopicLine(level: level, label: label, message: message, metadata: metadata, time: Date()), at: .now)
    }

    /// `at` is the moment the rate limit counts the line at (a test passes the minute after a flood).
    func offer(_ line: LogTopicLine, at now: ContinuousClock.Instant) {
        guard !Self.isPublishing else { return }
        let (admitted, suppressed) = limiter.admit(line.level.rawValue, at: now)
        guard admitted else { return }  // the limiter counts it, and says so in its next admission
        let queued = state.withLock { state in
            guard state.waiting.count < Self.capacity else {
                state.dropped[line.level, default: 0] += 1 + suppressed
                return false
            }
            var line = line
            line.dropped = suppressed + (state.dropped.removeValue(forKey: line.level) ?? 0)
            state.waiting.append(line)
            return true
        }
        if queued { ring.yield() }
    }

    /// The oldest line that waits, left in place until `finished(_:published:)`, so that the queue stays full (and
    /// bounded) while it waits for the broker.
    var first: LogTopicLine? { state.withLock { $0.waiting.first } }

    /// Removes the oldest line; one that was not published is counted in the next line of its level.
    func finished(_ line: LogTopicLine, published: Bool) {
        state.withLock { state in
            _ = state.waiting.popFirst()
            if !published { state.dropped[line.level, default: 0] += 1 + line.dropped }
        }
    }

    /// Publishes `line` on `mqtt`; false when the broker is away. Nothing logged meanwhile on this task is taken.
    func publish(_ line: LogTopicLine, on mqtt: any BrokerConnection) -> Bool {
        do {
            try Self.$isPublishing.withValue(true) {
                try mqtt.publishValue(topic: topic, payload: line.json, qos: .atMostOnce)
            }
            return true
        } catch {
            // Never logged: a line about a lost log line would be one more for the same broker.
            return false
        }
    }

    /// Stops the doorbell (the service's loop ends once it has taken what rang).
    func close() { ring.finish() }
}
