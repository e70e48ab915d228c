/// Matches what a relay delivered with what the device sent, in order. A stream's sequence repeats (a
/// belt heading every 360 values, a grip event every 14), so a value is matched with the first unmatched
/// value sent with the same sequence, looking at most one period ahead: values skipped on the way were
/// lost. Every relay delivers a device's values in the order they were sent (one MQTT connection).
enum OrderedMatch {
    /// Send → arrival, in nanoseconds, for each delivered value that matched.
    static func latencies(sent: [(sequence: Int, nanoseconds: UInt64)], received: [Reception], period: Int) -> [Int64] {
        var latencies: [Int64] = []
        var next = 0
        for reception in received {
            var probe = next
            while probe < sent.count, probe - next < period, sent[probe].sequence != reception.sequence { probe += 1 }
            guard probe < sent.count, probe - next < period, sent[probe].nanoseconds <= reception.nanoseconds else { continue }
            latencies.append(Int64(reception.nanoseconds) - Int64(sent[probe].nanoseconds))
            next = probe + 1
        }
        return latencies
    }
}
