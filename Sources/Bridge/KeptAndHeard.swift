/// What this gateway kept of each device and what it heard of it on the broker (from any gateway), each
/// with the time it came: the newer counts. The rule the belt's navigation and the other families' desired
/// state share.
///
/// Anyone on the broker may publish a `desired` or `navigation` topic under ever new device ids, and this
/// gateway keeps what it kept for every device it ever served: each table holds at most `limit` ids, and a
/// new one beyond that makes room by forgetting the id that changed longest ago.
struct KeptAndHeard<Kept: Sendable, Heard: Sendable>: Sendable {
    private var kept: [String: (value: Kept, at: ContinuousClock.Instant)] = [:]
    private var heard: [String: (value: Heard, at: ContinuousClock.Instant)] = [:]
    let limit: Int

    /// Far more devices than a gateway serves or a fleet shares a broker with.
    init(limit: Int = 1024) { self.limit = limit }

    func kept(_ id: String) -> Kept? { kept[id]?.value }

    mutating func keep(_ value: Kept, for id: String) {
        Self.makeRoom(for: id, in: &kept, limit: limit)
        kept[id] = (value, .now)
    }

    /// Changes what was heard of `id` (starting from `empty`), now.
    mutating func hear(_ id: String, empty: Heard, _ change: (inout Heard) -> Void) {
        var value = heard[id]?.value ?? empty
        change(&value)
        Self.makeRoom(for: id, in: &heard, limit: limit)
        heard[id] = (value, .now)
    }

    /// What was heard, when it is newer than what was kept and `usable` makes something of it; else what
    /// was kept.
    func newer(_ id: String, usable: (Heard) -> Kept?) -> Kept? {
        if let told = heard[id], kept[id].map({ told.at > $0.at }) ?? true, let value = usable(told.value) {
            return value
        }
        return kept[id]?.value
    }

    /// Moves what was kept and heard of `old` to `new` (the device was renamed), replacing what `new` had.
    mutating func move(from old: String, to new: String) {
        kept[new] = kept.removeValue(forKey: old)
        heard[new] = heard.removeValue(forKey: old)
    }

    /// How many ids each table holds (for tests of the bound).
    var counts: (kept: Int, heard: Int) { (kept.count, heard.count) }

    private static func makeRoom<Value>(
        for id: String, in table: inout [String: (value: Value, at: ContinuousClock.Instant)], limit: Int
    ) {
        guard table[id] == nil, table.count >= limit, let oldest = table.min(by: { $0.value.at < $1.value.at })?.key
        else { return }
        table[oldest] = nil
    }
}
