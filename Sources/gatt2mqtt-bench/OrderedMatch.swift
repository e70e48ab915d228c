/// Matches what a relay delivered with what the device sent. A stream's sequence repeats (a belt heading
/// every 360 values, a grip event every 14), so a sequence names a value only near where the stream is:
/// a delivered value is matched with the earliest unmatched value sent with its sequence that is no more
/// than half a period behind the furthest value matched so far and no more than a period ahead of it.
/// Relays deliver a device's values in order, but a simulator's traffic log may write two values it sent
/// close together in the other order; within half a period that does not matter. Values never matched
/// were lost.
enum OrderedMatch {
    /// How much earlier than its send a value may be timed on arrival (nanoseconds).
    static let loggingSlack: UInt64 = 1_000_000

    /// Send → arrival, in nanoseconds, for each delivered value that matched.
    static func latencies(sent: [(sequence: Int, nanoseconds: UInt64)], received: [Reception], period: Int) -> [Int64] {
        // For each sequence, the positions in `sent` not matched yet, in order.
        var waiting: [Int: [Int]] = [:]
        var heads: [Int: Int] = [:]
        for (position, value) in sent.enumerated() { waiting[value.sequence, default: []].append(position) }
        var furthest = -1
        var latencies: [Int64] = []
        for reception in received {
            guard let positions = waiting[reception.sequence] else { continue }
            var head = heads[reception.sequence] ?? 0
            // Older than half a period behind: a value of an earlier round that was lost.
            while head < positions.count, positions[head] < furthest - period / 2 { head += 1 }
            heads[reception.sequence] = head
            guard head < positions.count, positions[head] <= max(furthest, 0) + period else { continue }
            let value = sent[positions[head]]
            // A simulator logs a value once its write returned, so a fast reader may time it a little earlier;
            // a value logged well after the reception is a later round's, not this one.
            guard value.nanoseconds <= reception.nanoseconds + Self.loggingSlack else { continue }
            latencies.append(Int64(reception.nanoseconds) - Int64(value.nanoseconds))
            heads[reception.sequence] = head + 1
            furthest = max(furthest, positions[head])
        }
        return latencies
    }
}
