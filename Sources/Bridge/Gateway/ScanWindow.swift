import Locks

/// The `scan` request's state, owned here rather than in the gateway's tables: while a scan runs, every
/// device seen is reported on `gatt2mqtt/<gateway>/scan` and counted; a newer request extends it, and only
/// the latest one ends it. Requests come from the broker and sightings from BlueZ's events: its own lock.
final class ScanWindow: Sendable {
    private struct State {
        var until: ContinuousClock.Instant?
        /// The latest request: a scan is ended only by the request that opened its last extension.
        var generation = 0
        var seen: Set<String> = []
    }

    private let state = Mutex(State())
    /// At most this many addresses are counted: a scan renewed for hours among strangers advertising from ever
    /// new addresses must not grow the set without bound.
    let seenLimit: Int

    init(seenLimit: Int) { self.seenLimit = seenLimit }

    /// Opens the window for `seconds` from `now`, or extends the one open (keeping what it saw); returns the
    /// generation `close` takes.
    func open(for seconds: Int, now: ContinuousClock.Instant = .now) -> Int {
        state.withLock { state in
            if (state.until.map { $0 <= now }) ?? true { state.seen = [] }
            state.until = now + .seconds(seconds)
            state.generation += 1
            return state.generation
        }
    }

    /// Ends the scan opened as `generation` and returns how many addresses it saw; nil when a later request
    /// extended it (that one ends it).
    func close(_ generation: Int) -> Int? {
        state.withLock { state in
            guard state.generation == generation else { return nil }
            state.until = nil
            return state.seen.count
        }
    }

    /// Whether a scan runs at `now`; if so `address` is counted as seen.
    func sighted(_ address: String, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            guard let until = state.until, now < until else { return false }
            if state.seen.count < seenLimit { state.seen.insert(address) }
            return true
        }
    }
}
