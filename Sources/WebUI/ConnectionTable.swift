/// The connections the live page holds, and which to close when a new one would pass a limit.
///
/// NIO needs no thread per connection, so an idle socket costs little; what starved the page was a fixed
/// number of connection slots with idle strangers in them. The limits stay (a file descriptor and a pipeline
/// each), but when one is reached the new connection is let in by closing one that is doing nothing: first
/// those that have not sent a whole request head, then those whose requests never logged in, then those that
/// logged in and wait, kept alive, for their next request; oldest first in each. A connection at work (a request
/// being served, a page's WebSocket) is never closed for a newcomer; when every connection in the way is at
/// work, the newcomer is refused. A kept-alive connection that sent a whole request is not at work once it is
/// answered: on the page without credentials any request logs in, and 32 of them, asking again every few seconds,
/// kept every other client from 127.0.0.1 out (issue #56). Closing one costs its client a reconnect.
///
/// A connection opened within the last `fresh` (2 s) that has not logged in yet is spared until the idle kept-alive
/// ones are gone: its client has sent its request or is about to, and the server has not read it, or not checked it,
/// yet. Without this, clients reconnecting many times a second (kept-alive ones closed to make room, and opening
/// again) each closed the youngest request on its way in, the legitimate one among them. Among fresh connections the
/// order is the same (silent ones first, oldest first), and a stranger's connection is fresh for 2 s only.
///
/// Silent is what the kernel says, not what the server has read: between a connection's accept and the server's
/// first read of it, dozens of newcomers may be let in, and each closed the oldest connection without a whole head,
/// which could be a legitimate request the server had not read yet (one in five runs of 300 idle sockets reopening,
/// issue #56). So before a connection without a head is closed, the caller's `hasSpoken` asks the kernel whether any
/// byte came on it; one that spoke is moved up to `heard` and spared until the silent ones are gone.
///
/// Pure, and generic over the connection's identity, so that tests need no sockets.
struct ConnectionTable<ID: Hashable & Sendable>: Sendable {
    /// How far a connection has come, in the order they are spared.
    enum Stage: Int, Comparable, Sendable {
        /// Nothing came from the client, as far as the table knows.
        case waiting
        /// Bytes came (the kernel has them, read or not), but no complete request head yet.
        case heard
        /// A request came, but none with the right credentials.
        case unauthenticated
        /// A request with the right credentials (or any request, when the page asks for none).
        case authenticated

        static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    struct Admission: Equatable, Sendable {
        let admitted: Bool
        /// Connections to close to make room (already out of the table).
        let evicted: [ID]
    }

    private struct Entry: Sendable {
        let source: SourceAddress
        var stage: Stage
        /// When it was opened, in the table's own count: oldest is lowest.
        let order: UInt64
        /// Requests being served on it, and its WebSocket once upgraded (which ends only with the connection).
        var atWork = 0
        /// When it was opened, when the caller says (`open(_:from:at:)`); a connection without is never fresh.
        let openedAt: ContinuousClock.Instant?
    }

    /// How long a newly opened connection that has not logged in yet is spared behind idle kept-alive ones.
    static var fresh: Duration { .seconds(2) }

    let maxTotal: Int
    let maxPerSource: Int
    private var entries: [ID: Entry] = [:]
    private var perSource: [SourceAddress: Int] = [:]
    private var opened: UInt64 = 0

    init(maxTotal: Int, maxPerSource: Int) {
        self.maxTotal = maxTotal
        self.maxPerSource = maxPerSource
    }

    var count: Int { entries.count }
    func count(from source: SourceAddress) -> Int { perSource[source] ?? 0 }
    func stage(of id: ID) -> Stage? { entries[id]?.stage }

    /// A new connection from `source`, opened at `now` (nil: no connection counts as fresh): in, with what must be
    /// closed to make room, or refused. `hasSpoken` says whether any byte came on a connection still `waiting`
    /// (asked only of those about to be closed).
    mutating func open(
        _ id: ID, from source: SourceAddress, at now: ContinuousClock.Instant? = nil,
        hasSpoken: (ID) -> Bool = { _ in false }
    ) -> Admission {
        var evicted: [ID] = []
        if count(from: source) >= maxPerSource {
            guard let victim = weakest(where: { $0.source == source }, at: now, hasSpoken: hasSpoken) else {
                return Admission(admitted: false, evicted: [])
            }
            evicted.append(victim)
        }
        if entries.count - evicted.count >= maxTotal {
            guard let victim = weakest(where: { _ in true }, excluding: evicted, at: now, hasSpoken: hasSpoken) else {
                return Admission(admitted: false, evicted: [])
            }
            evicted.append(victim)
        }
        for victim in evicted { close(victim) }
        opened += 1
        entries[id] = Entry(source: source, stage: .waiting, order: opened, openedAt: now)
        perSource[source, default: 0] += 1
        return Admission(admitted: true, evicted: evicted)
    }

    /// A connection came further (stages never go back).
    mutating func reached(_ stage: Stage, _ id: ID) {
        if let current = entries[id]?.stage, current < stage { entries[id]?.stage = stage }
    }

    /// A logged-in request is being served on the connection (or its WebSocket runs): it is not closed for a newcomer
    /// until `finished`.
    mutating func started(_ id: ID) {
        entries[id]?.atWork += 1
    }

    /// A request `started` was answered.
    mutating func finished(_ id: ID) {
        if let atWork = entries[id]?.atWork, atWork > 0 { entries[id]?.atWork = atWork - 1 }
    }

    func isAtWork(_ id: ID) -> Bool { (entries[id]?.atWork ?? 0) > 0 }

    mutating func close(_ id: ID) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        perSource[entry.source, default: 1] -= 1
        if perSource[entry.source] == 0 { perSource[entry.source] = nil }
    }

    /// The connection to close first among those `matching` and not at work: the lowest stage, the oldest in it,
    /// with fresh connections after every other. A `waiting` one that `hasSpoken` is moved up to `heard` first, and
    /// the choice made again (stages only go up, so this ends).
    private mutating func weakest(
        where matching: (Entry) -> Bool, excluding: [ID] = [], at now: ContinuousClock.Instant?,
        hasSpoken: (ID) -> Bool
    ) -> ID? {
        func fresh(_ entry: Entry) -> Int {
            guard entry.stage < .authenticated, let now, let openedAt = entry.openedAt else { return 0 }
            return now - openedAt < Self.fresh ? 1 : 0
        }
        while true {
            let weakest = entries.filter { $0.value.atWork == 0 && matching($0.value) && !excluding.contains($0.key) }
                .min {
                    (fresh($0.value), $0.value.stage, $0.value.order)
                        < (fresh($1.value), $1.value.stage, $1.value.order)
                }
            guard let (id, entry) = weakest else { return nil }
            guard entry.stage == .waiting, hasSpoken(id) else { return id }
            entries[id]?.stage = .heard
        }
    }
}
