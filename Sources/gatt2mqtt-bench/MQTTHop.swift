import BlueZ
import Foundation
import MQTT

/// The MQTT floor: the same payloads on the same number of topics at the same rate, published
/// straight to mosquitto by a client that does nothing else, and received by the benchmark's watcher.
struct MQTTHop {
    let port: Int

    /// Publishes `floor/<id>/force` for every id, `rate` times a second each, for `seconds`; returns
    /// the send time of every (id, sequence).
    func run(ids: [String], rate: Int, seconds: Double) async throws -> [String: [Int: UInt64]] {
        var configuration = MQTTConfiguration(host: "127.0.0.1", port: port, clientID: "bench-floor")
        configuration.incomingBufferSize = 16
        let client = try MQTTClient(configuration: configuration)
        client.start()
        try await client.connected()
        defer { Task { await client.stop() } }
        var sent: [String: [Int: UInt64]] = [:]
        // Spread over the period, one topic after another, as independent devices would be.
        let gap = Duration.nanoseconds(Int64(1e9 / Double(rate) / Double(ids.count)))
        let rounds = Int(seconds * Double(rate))
        var deadline = ContinuousClock.now
        for round in 1...rounds {
            let sequence = Int16(truncatingIfNeeded: (round - 1) % 32767 + 1)
            for id in ids {
                let payload = BenchFamily.activ5.stream.payloadOfSequence(Int(sequence)) ?? ""
                let now = MonotonicClock.nanoseconds()
                try client.publish(
                    MQTTMessage(topic: "floor/\(id)/force", payload: Array(payload.utf8), qos: .atMostOnce))
                sent[id, default: [:]][Int(sequence)] = now
                deadline += gap
                try await Task.sleep(until: deadline, clock: .continuous)
            }
        }
        return sent
    }
}
