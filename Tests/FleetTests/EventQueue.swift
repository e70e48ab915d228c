/// A min-heap of timed simulation events (not generic: a generic heap is several times slower in
/// the debug builds `swift test` runs) for the discrete-event simulation. Events at the same instant run
/// by `rank` (deliveries before timers, so a claim arriving exactly at its lease end still
/// counts) and then in scheduling order, which keeps runs reproducible.
struct EventQueue {
    private struct Entry {
        var time: Int64
        var rank: Int
        var order: UInt64
        var event: SimulationEvent

        func precedes(_ other: Entry) -> Bool {
            if time != other.time { return time < other.time }
            if rank != other.rank { return rank < other.rank }
            return order < other.order
        }
    }

    private var heap: [Entry] = []
    private var scheduled: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }

    mutating func schedule(_ event: SimulationEvent, at time: Int64, rank: Int) {
        heap.append(Entry(time: time, rank: rank, order: scheduled, event: event))
        scheduled += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func next() -> (time: Int64, event: SimulationEvent)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let entry = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < heap.count, heap[left].precedes(heap[first]) { first = left }
            if right < heap.count, heap[right].precedes(heap[first]) { first = right }
            guard first != parent else { break }
            heap.swapAt(parent, first)
            parent = first
        }
        return (entry.time, entry.event)
    }
}
