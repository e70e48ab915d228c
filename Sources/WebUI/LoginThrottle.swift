/// Failed logins counted per source, so that guessing the page's password or token is slow and seen.
///
/// A source's first `freeFailures` are free (a typo costs nothing). Each failure after them puts the source in
/// a penalty window, twice as long as the last (1 s, 2 s, 4 s … at most `longestPenalty`), during which it is
/// refused with 429 and `Retry-After` without its credentials being looked at. Nothing sleeps: a refusal costs
/// the server what a 404 costs, however many an attacker sends. A source quiet for `forgetAfter` starts afresh,
/// and so does one that logs in. The table holds at most `capacity` sources, the least recently failed
/// dropped first, so a flood of sources cannot grow it.
///
/// Pure: every call takes the time, so tests need no clock and no sleep.
struct LoginThrottle: Sendable {
    struct Policy: Sendable {
        var freeFailures = 5
        var firstPenalty: Duration = .seconds(1)
        var longestPenalty: Duration = .seconds(30)
        var forgetAfter: Duration = .seconds(15 * 60)
        var capacity = 1024
        /// One log line per source at most this often, with the count since the last one (and one more when the
        /// source's refusals start).
        var logInterval: Duration = .seconds(60)
        /// Lines for all sources together in one `logInterval`: many sources at once must not flood the journal.
        var logLinesPerInterval = 20
    }

    enum Verdict: Equatable, Sendable {
        /// Look at the credentials.
        case check
        /// Answer 429 without looking: the source is in its penalty window for this long yet.
        case refuse(retryAfter: Duration)
    }

    /// What to log about a failure, when it is time to.
    struct LogLine: Equatable, Sendable {
        let source: SourceAddress
        /// Failures of this source since it was last forgotten or logged in.
        let failures: Int
        /// Failures and refusals since this source's last line.
        let sinceLastLine: Int
        /// The penalty window this failure opened, if any.
        let penalty: Duration?
    }

    private struct Record: Sendable {
        var failures = 0
        var lastFailure: ContinuousClock.Instant
        var penaltyEnds: ContinuousClock.Instant?
        var lastLine: ContinuousClock.Instant?
        var unlogged = 0
    }

    let policy: Policy
    private var records: [SourceAddress: Record] = [:]
    private var linesStarted: ContinuousClock.Instant?
    private var linesInInterval = 0

    init(policy: Policy = Policy()) { self.policy = policy }

    /// How many sources are remembered.
    var count: Int { records.count }

    /// Whether a request from `source` may try its credentials now.
    mutating func verdict(for source: SourceAddress, at now: ContinuousClock.Instant) -> Verdict {
        forgetIfQuiet(source, at: now)
        guard let ends = records[source]?.penaltyEnds, now < ends else { return .check }
        records[source]?.unlogged += 1
        return .refuse(retryAfter: ends - now)
    }

    /// Counts a wrong password or token; returns the line to log, when one is due.
    mutating func failed(_ source: SourceAddress, at now: ContinuousClock.Instant) -> LogLine? {
        forgetIfQuiet(source, at: now)
        if records[source] == nil { makeRoom(at: now) }
        var record = records[source] ?? Record(lastFailure: now)
        record.failures += 1
        record.lastFailure = now
        record.unlogged += 1
        let penalty = penalty(after: record.failures)
        if let penalty { record.penaltyEnds = now + penalty }
        var line: LogLine?
        // A source's first failure, and the one that starts its refusals, are worth a line each; then one an interval.
        let due = record.lastLine.map { now - $0 >= policy.logInterval } ?? true
        if due || record.failures == policy.freeFailures + 1, takeLine(at: now) {
            line = LogLine(source: source, failures: record.failures, sinceLastLine: record.unlogged, penalty: penalty)
            record.lastLine = now
            record.unlogged = 0
        }
        records[source] = record
        return line
    }

    /// The right credentials: the source starts afresh.
    mutating func succeeded(_ source: SourceAddress) {
        records[source] = nil
    }

    /// The penalty window after a source's `failures`-th failure, if it has one.
    func penalty(after failures: Int) -> Duration? {
        let beyond = failures - policy.freeFailures
        guard beyond > 0 else { return nil }
        // Doubling stops once past the cap; the shift is bounded so it cannot overflow.
        let doubled = policy.firstPenalty * (1 << min(beyond - 1, 30))
        return min(doubled, policy.longestPenalty)
    }

    private mutating func forgetIfQuiet(_ source: SourceAddress, at now: ContinuousClock.Instant) {
        if let record = records[source], now - record.lastFailure >= policy.forgetAfter { records[source] = nil }
    }

    /// Drops quiet sources, then, if the table is still full, the one that failed longest ago.
    private mutating func makeRoom(at now: ContinuousClock.Instant) {
        guard records.count >= policy.capacity else { return }
        records = records.filter { now - $0.value.lastFailure < policy.forgetAfter }
        while records.count >= policy.capacity,
            let oldest = records.min(by: { $0.value.lastFailure < $1.value.lastFailure })
        {
            records[oldest.key] = nil
        }
    }

    /// Takes one of the interval's log lines for all sources; false when they are spent.
    private mutating func takeLine(at now: ContinuousClock.Instant) -> Bool {
        if linesStarted.map({ now - $0 >= policy.logInterval }) ?? true {
            linesStarted = now
            linesInInterval = 0
        }
        guard linesInInterval < policy.logLinesPerInterval else { return false }
        linesInInterval += 1
        return true
    }
}
