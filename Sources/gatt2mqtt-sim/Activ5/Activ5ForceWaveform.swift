/// A squeeze the simulated user gives the Activ5.
enum Activ5Squeeze: Sendable, Equatable {
    /// One squeeze: above 40 N for about a second, then back to rest.
    case single
    /// Two single squeezes with a second of rest between them, well inside the 5 s window of the
    /// double-squeeze detector (activ5.md §7).
    case double

    /// Parses `squeeze` (also `single`) or `double`.
    init?(name: String) {
        switch name.lowercased() {
        case "squeeze", "single": self = .single
        case "double": self = .double
        default: return nil
        }
    }
}

/// The force a simulated user applies over time, in newtons: a resting hand of a few newtons with a little
/// noise, squeezes on top of it, or a value held by a test.
///
/// It is a timeline, not a clock: events are placed at times (seconds on the simulator's monotonic clock)
/// and `newtons(at:)` samples it, so scripted squeezes can be placed in the future and every stream samples
/// the same curve. A hold lasts until a later event (a squeeze or `rest`); a squeeze ends an earlier hold.
struct Activ5ForceWaveform: Sendable {
    /// Force of a resting hand: above zero, below the detector's 5 N release threshold.
    static let restingNewtons = 2.0
    /// Half-width of the uniform noise on the resting force.
    static let noiseNewtons = 0.4
    /// Force at the top of a squeeze: clearly above the 40 N a test looks for.
    static let squeezePeakNewtons = 45.0
    /// Time to reach the peak, and to let go again.
    static let rampSeconds = 0.15
    /// Time at the peak.
    static let holdSeconds = 1.0
    /// Rest between the two squeezes of a double squeeze.
    static let doubleSqueezeGapSeconds = 1.0
    /// Length of one squeeze, ramps included.
    static var squeezeSeconds: Double { 2 * rampSeconds + holdSeconds }

    private enum Event: Sendable {
        case squeeze
        case hold(newtons: Double)
        case rest
    }

    private struct TimedEvent: Sendable {
        var time: Double
        var event: Event
        var isSqueeze: Bool { if case .squeeze = event { true } else { false } }
    }

    /// Events in time order.
    private var events: [TimedEvent] = []
    private var random: SplitMix64

    /// Creates a resting waveform; `seed` makes the noise reproducible.
    init(seed: UInt64 = 0x5A01) {
        random = SplitMix64(seed: seed)
    }

    /// Places a squeeze (two for `.double`) starting at `time`.
    mutating func squeeze(_ squeeze: Activ5Squeeze, at time: Double) {
        insert(.squeeze, at: time)
        if squeeze == .double { insert(.squeeze, at: time + Self.squeezeSeconds + Self.doubleSqueezeGapSeconds) }
    }

    /// Holds `newtons`, without noise, from `time` until the next event.
    mutating func hold(_ newtons: Double, from time: Double) {
        insert(.hold(newtons: newtons), at: time)
    }

    /// Ends a hold at `time`: back to the resting hand.
    mutating func rest(from time: Double) {
        insert(.rest, at: time)
    }

    /// The force at `time`; each call draws new noise.
    mutating func newtons(at time: Double) -> Double {
        let past = events.prefix { $0.time <= time }
        if case .hold(let newtons) = past.last?.event { return newtons }
        // Squeezes count from the last hold or rest on (a squeeze still due later is not cancelled, so the
        // second half of a double squeeze comes even after `force`); the strongest wins where two overlap.
        let since = past.lastIndex { !$0.isSqueeze }.map { $0 + 1 } ?? past.startIndex
        let squeezing = past[since...].map { Self.envelope(time - $0.time) }.max() ?? 0
        let noise = Double.random(in: -Self.noiseNewtons...Self.noiseNewtons, using: &random)
        return Self.restingNewtons + noise + squeezing
    }

    /// Force added by a squeeze `elapsed` seconds after it began: ramp, plateau, ramp.
    static func envelope(_ elapsed: Double) -> Double {
        switch elapsed {
        case ..<0: 0
        case ..<rampSeconds: squeezePeakNewtons * elapsed / rampSeconds
        case ..<(rampSeconds + holdSeconds): squeezePeakNewtons
        case ..<squeezeSeconds: squeezePeakNewtons * (squeezeSeconds - elapsed) / rampSeconds
        default: 0
        }
    }

    private mutating func insert(_ event: Event, at time: Double) {
        // After existing events at the same time, so that the later command wins.
        let index = events.firstIndex { $0.time > time } ?? events.count
        events.insert(TimedEvent(time: time, event: event), at: index)
    }
}

/// A small seeded generator (SplitMix64), so that a run's noise can be reproduced.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
