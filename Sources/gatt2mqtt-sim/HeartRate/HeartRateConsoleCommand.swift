import Peripherals

/// A line a test writes to the heart rate strap simulator's standard input.
///
/// - `help`: lists these commands (HELP lines).
/// - `bpm <n>`: the rate, 30–250, from the next measurement on (its RR interval follows).
/// - `contact on|off`: whether the electrodes touch the skin (refused with `--no-contact`).
/// - `battery <percent>`: the level 2A19 reads from now on, 0–100, notified if subscribed.
/// - `energy <kJ>`: the energy expended the next measurement reports, 0–65535 (refused with `--no-energy`).
/// - `rr <ms>,<ms>,…`: one measurement now carrying exactly these RR intervals, oldest first (spaces after the
///   commas allowed), each 1–63999 ms.
/// - `beat`: one measurement now, as the timer would send it.
enum HeartRateConsoleCommand: Equatable {
    case help
    case beatsPerMinute(Int)
    case contact(Bool)
    case battery(percent: Int)
    case energy(kilojoules: Int)
    /// RR intervals in the field's 1/1024 s, converted from the milliseconds given.
    case rrIntervals([UInt16])
    case beat

    /// What `help` prints, one line per command.
    static let usage = [
        "help  these lines",
        "bpm <30-250>  heart rate from the next measurement on",
        "contact <on|off>  skin contact (not with --no-contact)",
        "battery <0-100>  battery level, notified on 2a19 if subscribed",
        "energy <0-65535>  energy expended (kJ) of the next measurement (not with --no-energy)",
        "rr <ms>,<ms>,...  one measurement now with exactly these RR intervals",
        "beat  one measurement now",
    ]

    /// The most RR intervals one `rr` may give: as many as the encoder keeps in one value when every other field
    /// is present, so that `rr` never sends fewer intervals than asked. Asked of the encoder rather than counted
    /// here, so that the wire layout stays in Peripherals. (A link whose MTU is smaller still cuts the value:
    /// bluetoothd sends at most MTU − 3 bytes of a notification.)
    static let mostRRIntervals: Int = {
        let overfull = HeartRateMeasurement(
            beatsPerMinute: HeartRateBeatSchedule.acceptedBeatsPerMinute.upperBound, contact: .detected,
            energyExpendedKilojoules: 0,
            rawRRIntervals: Array(repeating: 1, count: HeartRateMeasurement.maximumByteCount))
        return (try? HeartRateMeasurement(bytes: overfull.encoded()).rawRRIntervals.count) ?? 0
    }()

    /// Parses one line; nil for a blank line.
    /// - Throws: `HeartRateConsoleError` with the reason printed after `ERROR`.
    static func parse(_ line: String) throws(HeartRateConsoleError) -> HeartRateConsoleCommand? {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let verb = words.first else { return nil }
        switch verb.lowercased() {
        case "help":
            guard words.count == 1 else { throw HeartRateConsoleError("usage: help") }
            return .help
        case "bpm":
            let accepted = HeartRateBeatSchedule.acceptedBeatsPerMinute
            guard words.count == 2, let rate = Int(words[1]), accepted.contains(rate) else {
                throw HeartRateConsoleError("usage: bpm <\(accepted.lowerBound)-\(accepted.upperBound)>")
            }
            return .beatsPerMinute(rate)
        case "contact":
            guard words.count == 2, let touching = ["on": true, "off": false][words[1].lowercased()] else {
                throw HeartRateConsoleError("usage: contact <on|off>")
            }
            return .contact(touching)
        case "battery":
            guard words.count == 2, let percent = Int(words[1]), (0...100).contains(percent) else {
                throw HeartRateConsoleError("usage: battery <percent 0-100>")
            }
            return .battery(percent: percent)
        case "energy":
            let largest = HeartRateBeatSchedule.largestEnergyKilojoules
            guard words.count == 2, let kilojoules = Int(words[1]), (0...largest).contains(kilojoules) else {
                throw HeartRateConsoleError("usage: energy <kJ 0-\(largest)>")
            }
            return .energy(kilojoules: kilojoules)
        case "rr":
            return .rrIntervals(try rrIntervals(words.dropFirst().joined()))
        case "beat":
            guard words.count == 1 else { throw HeartRateConsoleError("usage: beat") }
            return .beat
        default:
            throw HeartRateConsoleError("unknown command '\(verb)' (try help)")
        }
    }

    /// `800,810,795` (spaces already removed) in 1/1024 s; every item must be a whole number of milliseconds.
    private static func rrIntervals(_ list: String) throws(HeartRateConsoleError) -> [UInt16] {
        let longest = HeartRateBeatSchedule.longestRRMilliseconds
        let usage = "usage: rr <ms>,<ms>,... (1-\(mostRRIntervals) intervals of 1-\(longest) ms)"
        let items = list.split(separator: ",", omittingEmptySubsequences: false)
        guard !list.isEmpty, items.count <= mostRRIntervals else { throw HeartRateConsoleError(usage) }
        var intervals: [UInt16] = []
        for item in items {
            guard let milliseconds = Int(item),
                let interval = HeartRateBeatSchedule.rrInterval(milliseconds: milliseconds)
            else { throw HeartRateConsoleError("\(usage): '\(item)'") }
            intervals.append(interval)
        }
        return intervals
    }
}

/// Why a console line was not understood.
struct HeartRateConsoleError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
