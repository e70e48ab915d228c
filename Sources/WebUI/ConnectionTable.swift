/// The connections the live page holds, and which to close when a new one would pass a limit.
///
/// NIO needs no thread per connection, so an idle socket costs little; what starved the page was a fixed
/// number of connection slots with idle strangers in them. The limits stay (a file descriptor and a pipeline
/// each), but when one is reached the new connection is let in by closing one that has not proved anything:
/// first those that have not sent a whole request head, then those whose requests never logged in, oldest
/// first in each. A logged-in connection (a page's WebSocket, a request being served) is never closed for a
/// newcomer; when every connection in the way is one, the newcomer is refused.
///
/// Pure, and generic over the connection's identity, so that tests need no sockets.
struct ConnectionTable<ID: Hashable & Sendable>: Sendable {
    /// How far a connection has come, in the order they are spared.
    enum Stage: Int, Comparable, Sendable {
        /// No complete request head yet.
        case waiting
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
    }

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

    /// A new connection from `source`: in, with what must be closed to make room, or refused.
    mutating func open(_ id: ID, from source: SourceAddress) -> Admission {
        var evicted: [ID] = []
        if count(from: source) >= maxPerSource {
            guard let victim = weakest(where: { $0.source == source }) else {
                return Admission(admitted: false, evicted: [])
            }
            evicted.append(victim)
        }
        if entries.count - evicted.count >= maxTotal {
            guard let victim = weakest(where: { _ in true }, excluding: evicted) else {
                return Admission(admitted: false, evicted: [])
            }
            evicted.append(victim)
        }
        for victim in evicted { close(victim) }
        opened += 1
        entries[id] = Entry(source: source, stage: .waiting, order: opened)
        perSource[source, default: 0] += 1
        return Admission(admitted: true, evicted: evicted)
    }

    /// A connection came further (stages never go back).
    mutating func reached(_ stage: Stage, _ id: ID) {
        if let current = entries[id]?.stage, current < stage { entries[id]?.stage = stage }
    }

    mutating func close(_ id: ID) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        perSource[entry.source, default: 1] -= 1
        if perSource[entry.source] == 0 { perSource[entry.source] = nil }
    }

    /// The connection to close first among those `matching`: the lowest stage short of logged in, the oldest in it.
    private func weakest(where matching: (Entry) -> Bool, excluding: [ID] = []) -> ID? {
        entries.filter { $0.value.stage < .authenticated && matching($0.value) && !excluding.contains($0.key) }
            .min { ($0.value.stage, $0.value.order) < ($1.value.stage, $1.value.order) }?.key
    }
}
