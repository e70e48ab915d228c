import Fleet
import Foundation
import TestSupport

/// The fleet-scale benchmark's eyes on the broker: `mosquitto_sub` on every topic (`#`), which stamps each message
/// with its arrival (`%U`, the wall clock in nanoseconds), and on mosquitto's counters of publishes received and
/// sent (`$SYS`, every second). A process of its own, so that the gateways' process's CPU is the gateways' alone.
final class ScaleObserver: Sendable {
    /// One message as it arrived.
    struct Message: Sendable {
        var at: Double
        var topic: String
        var payload: String
    }

    private let process: ManagedProcess

    /// Subscribes on `port` with MQTT 5 (`v311` for RabbitMQ), to the broker's counters too if it has them
    /// (`counters`); returns once a probe published there came back.
    static func start(port: Int, v311: Bool, counters: Bool) async throws -> ScaleObserver {
        let version = v311 ? "mqttv311" : "mqttv5"
        let process = try ManagedProcess.launch(
            "mosquitto_sub",
            arguments: [
                "-h", "127.0.0.1", "-p", "\(port)", "-V", version, "-q", "1", "-i", "fleet-scale-observer-\(getpid())",
                "-t", "#", "-F", "%U %t %p",
            ] + (counters ? ["-t", "$SYS/broker/publish/messages/+"] : []))
        let deadline = ContinuousClock.now + .seconds(30)
        while !process.lines.contains(where: { $0.text.contains(" fleet-scale/probe ") }) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw BenchFailure("the observer did not subscribe: \(process.outputTail(5))")
            }
            let probe = try ManagedProcess.launch(
                "mosquitto_pub",
                arguments: ["-h", "127.0.0.1", "-p", "\(port)", "-V", version, "-t", "fleet-scale/probe", "-m", "1"])
            _ = try? await probe.waitForExit(timeout: .seconds(5))
            try await Task.sleep(for: .milliseconds(300))
        }
        return ScaleObserver(process: process)
    }

    private init(process: ManagedProcess) { self.process = process }

    func stop() async { _ = await process.terminate(grace: .seconds(1)) }

    /// Every message so far (debug lines left out).
    var messages: [Message] { process.lines.compactMap { Self.parse($0.text) } }

    /// `<seconds.nanoseconds> <topic> <payload>`; nil for anything else (`-d`'s packet log).
    static func parse(_ line: String) -> Message? {
        guard let space = line.firstIndex(of: " "), let at = Double(line[..<space]) else { return nil }
        let rest = line[line.index(after: space)...]
        let topicEnd = rest.firstIndex(of: " ") ?? rest.endIndex
        let payload = topicEnd < rest.endIndex ? String(rest[rest.index(after: topicEnd)...]) : ""
        return Message(at: at, topic: String(rest[..<topicEnd]), payload: payload)
    }

    /// The fleet's messages among `messages`, for the ownership ledger: claims (decoded as a gateway decodes them),
    /// gateway statuses, and a device's `owner` (the gateway that just took it), which counts as that gateway's
    /// `owner` claim: a gateway alone (the last one left after kills) takes devices without publishing claims.
    static func ledgerEvents(_ messages: [Message]) -> [OwnershipLedger.Event] {
        messages.compactMap { message in
            let levels = message.topic.split(separator: "/")
            switch FleetTraffic.kind(of: message.topic) {
            case .claim:
                let device = "\(levels[3])/\(levels[4])"
                guard let claim = try? ClaimCodec.decode(message.payload, device: device) else { return nil }
                return .init(
                    at: message.at, gateway: claim.gateway, what: .claim(device: device, owner: claim.state == .owner))
            case .owner:
                guard !message.payload.isEmpty else { return nil }
                return .init(
                    at: message.at, gateway: message.payload,
                    what: .claim(device: "\(levels[0])/\(levels[1])", owner: true))
            case .status:
                return .init(
                    at: message.at, gateway: String(levels[1]), what: .status(online: message.payload == "online"))
            default:
                return nil
            }
        }
    }

    /// The broker's count of publishes `sent` (or `received`): its last reading at or before `time`, and when.
    static func brokerCounter(_ messages: [Message], _ name: String, at time: Double) -> (at: Double, value: Double)? {
        let topic = "$SYS/broker/publish/messages/\(name)"
        guard let reading = messages.last(where: { $0.topic == topic && $0.at <= time }),
            let value = Double(reading.payload)
        else { return nil }
        return (reading.at, value)
    }
}
