/// Which of the gateway's adapters connects a device it sees on several.
///
/// A bond lives on one adapter (its keys are stored per controller), so a device paired on some of
/// them is only connected through those. Otherwise the adapter with a free slot and the strongest
/// signal wins, the configured order breaking ties (also when no adapter reports a signal, as
/// btvirt's never do). A full adapter is never chosen: Home Assistant's users report what an
/// over-committed adapter does ("No backend with an available connection slot", leaked slots).
struct AdapterChoice: Sendable, Equatable {
    /// One adapter's view of the device.
    struct Sighting: Sendable, Equatable {
        var adapter: String
        /// dBm; nil when the adapter reports none.
        var rssi: Int16?
        var paired: Bool
    }

    /// The adapters in the configured order.
    var adapters: [String]
    /// Connections an adapter holds at most.
    var slots: Int

    /// The adapter to connect through, or nil when every adapter that may serve the device is full.
    /// `load` counts the connections (sessions) each adapter already holds.
    func choose(_ sightings: [Sighting], load: [String: Int]) -> String? {
        let bonded = sightings.filter(\.paired)
        let eligible = (bonded.isEmpty ? sightings : bonded).filter { (load[$0.adapter] ?? 0) < slots }
        func rank(_ sighting: Sighting) -> Int { adapters.firstIndex(of: sighting.adapter) ?? adapters.count }
        return eligible.min { a, b in
            let (signalA, signalB) = (a.rssi.map(Int.init) ?? Int.min, b.rssi.map(Int.init) ?? Int.min)
            return signalA != signalB ? signalA > signalB : rank(a) < rank(b)
        }?.adapter
    }
}
