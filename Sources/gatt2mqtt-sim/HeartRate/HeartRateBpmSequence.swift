/// `--sequence-bpm`: measurements the benchmark can tell apart. The n-th measurement since the central
/// subscribed to 2A37 (n = 1, 2, …) reports ((n − 1) mod 221) + 30 bpm: 30, 31, … 250, then 30 again, every
/// rate `--bpm` accepts. The bridge publishes the rate as it is on `hr/<id>/bpm`, so the n-th publication
/// names its measurement within a period of 221.
struct HeartRateBpmSequence: Sendable {
    private var next = HeartRateBeatSchedule.acceptedBeatsPerMinute.lowerBound

    /// The next rate; `restart()` makes the next one 30 again.
    mutating func beatsPerMinute() -> Int {
        let rates = HeartRateBeatSchedule.acceptedBeatsPerMinute
        defer { next = next == rates.upperBound ? rates.lowerBound : next + 1 }
        return next
    }

    /// Counts from 30 again (a new subscription).
    mutating func restart() { next = HeartRateBeatSchedule.acceptedBeatsPerMinute.lowerBound }
}
