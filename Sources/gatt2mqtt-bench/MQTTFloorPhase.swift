/// The MQTT floor as a phase: ``MQTTHop`` publishing, the watcher receiving, matched by sequence.
struct MQTTFloorPhase {
    let port: Int
    let watcher: BrokerWatcher

    func run(ids: [String], rate: Int, seconds: Double) async throws -> PhaseFigures {
        let sent = try await MQTTHop(port: port).run(ids: ids, rate: rate, seconds: seconds)
        try await Task.sleep(for: .seconds(1))
        var latencies: [Int64] = []
        var total = 0
        for id in ids {
            var sentAt = sent[id] ?? [:]
            total += sentAt.count
            for reception in watcher.receptions("floor/\(id)") {
                if let at = sentAt.removeValue(forKey: reception.sequence) {
                    latencies.append(Int64(reception.nanoseconds) - Int64(at))
                }
            }
        }
        return PhaseFigures(
            relay: "MQTT floor", sent: total, received: latencies.count,
            notificationLatency: LatencySummary(nanoseconds: latencies),
            receivedPerSecond: Double(latencies.count) / seconds, commandLatency: LatencySummary(nanoseconds: []),
            cpuMillisecondsPer1000: nil, residentKilobytes: nil)
    }
}
