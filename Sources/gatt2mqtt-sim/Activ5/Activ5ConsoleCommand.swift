/// A line a test writes to the Activ5 simulator's standard input.
///
/// - `squeeze` / `double`: a single or double squeeze starting now (see `Activ5ForceWaveform`).
/// - `force <newtons>`: the user holds exactly this force (no noise) until the next `force`, `rest` or squeeze,
///   scripted ones included.
/// - `rest`: back to the resting hand after `force`.
/// - `battery <percent>`: the level 2A19 reads from now on.
/// - `power-off <seconds>`: the idle power-off time from now on, counted from the host's last write as ever (a test
///   shortens it once the host's keep-alives run, so that a slow handshake on a loaded machine is not taken for idle
///   time).
enum Activ5ConsoleCommand: Equatable {
    case squeeze(Activ5Squeeze)
    case force(newtons: Double)
    case rest
    case battery(percent: UInt8)
    case powerOff(seconds: Double)

    /// Parses one line; nil for a blank line.
    /// - Throws: `Activ5ConsoleError` with the reason printed after `ERROR`.
    static func parse(_ line: String) throws(Activ5ConsoleError) -> Activ5ConsoleCommand? {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let verb = words.first else { return nil }
        switch verb.lowercased() {
        case "squeeze", "double":
            guard words.count == 1, let squeeze = Activ5Squeeze(name: verb) else {
                throw Activ5ConsoleError("usage: \(verb.lowercased())")
            }
            return .squeeze(squeeze)
        case "force":
            guard words.count == 2, let newtons = Double(words[1]), newtons.isFinite else {
                throw Activ5ConsoleError("usage: force <newtons>")
            }
            return .force(newtons: newtons)
        case "rest":
            guard words.count == 1 else { throw Activ5ConsoleError("usage: rest") }
            return .rest
        case "battery":
            guard words.count == 2, let percent = Double(words[1]), (0...100).contains(percent) else {
                throw Activ5ConsoleError("usage: battery <percent 0-100>")
            }
            return .battery(percent: UInt8(percent.rounded()))
        case "power-off":
            guard words.count == 2, let seconds = Double(words[1]), seconds.isFinite, seconds > 0 else {
                throw Activ5ConsoleError("usage: power-off <seconds>")
            }
            return .powerOff(seconds: seconds)
        default:
            throw Activ5ConsoleError("unknown command '\(verb)'")
        }
    }
}

/// Why a console line was not understood.
struct Activ5ConsoleError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
