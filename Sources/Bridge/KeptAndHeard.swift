/// What this gateway kept of each device and what it heard of it on the broker (from any gateway), each
/// with the time it came: the newer counts. The rule the belt's navigation and the other families' desired
/// state share.
struct KeptAndHeard<Kept: Sendable, Heard: Sendable>: Sendable {
    private var kept: [String: (value: Kept, at: ContinuousClock.Instant)] = [:]
    private var heard: [String: (value: Heard, at: ContinuousClock.Instant)] = [:]

    func kept(_ id: String) -> Kept? { kept[id]?.value }

    mutating func keep(_ value: Kept, for id: String) { kept[id] = (value, .now) }

    /// Changes what was heard of `id` (starting from `empty`), now.
    mutating func hear(_ id: String, empty: Heard, _ change: (inout Heard) -> Void) {
        var value = heard[id]?.value ?? empty
        change(&value)
        heard[id] = (value, .now)
    }

    /// What was heard, when it is newer than what was kept and `usable` makes something of it; else what
    /// was kept.
    func newer(_ id: String, usable: (Heard) -> Kept?) -> Kept? {
        if let told = heard[id], kept[id].map({ told.at > $0.at }) ?? true, let value = usable(told.value) { return value }
        return kept[id]?.value
    }
}
