/// A line a test writes to the grip simulator's standard input.
///
/// - `event <name>`: one event, by SDK name (`shutterButtonHalfDown`) or alias (`half_press`).
/// - `sequence <name>`: `shutter` (half press → press → release), `dial_burst`, `flick_left`,
///   `flick_right`, `hold_left`, `hold_right`.
/// - `dial <n>`: n dial steps, clockwise; a negative n turns counter-clockwise.
/// - `battery <percent>`: the level 2A19 reads from now on, notified if subscribed.
enum GripConsoleCommand: Equatable {
    case action(GripAction)
    case battery(percent: Int)

    /// Parses one line; nil for a blank line.
    /// - Throws: `GripConsoleError` with the reason printed after `ERROR`.
    static func parse(_ line: String) throws(GripConsoleError) -> GripConsoleCommand? {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let verb = words.first else { return nil }
        switch verb.lowercased() {
        case "event":
            guard words.count == 2 else { throw GripConsoleError("usage: event <name>") }
            guard let event = GripAction.event(named: words[1]) else {
                throw GripConsoleError("unknown event '\(words[1])'")
            }
            return .action(.event(event))
        case "sequence":
            guard words.count == 2 else { throw GripConsoleError("usage: sequence <name>") }
            guard let sequence = GripAction.sequence(named: words[1]) else {
                let names = GripAction.sequenceNames.keys.sorted().joined(separator: ", ")
                throw GripConsoleError("unknown sequence '\(words[1])' (known: \(names))")
            }
            return .action(sequence)
        case "dial":
            let limit = GripTiming.maximumDialSteps
            guard words.count == 2, let steps = Int(words[1]), steps != 0, abs(steps) <= limit else {
                throw GripConsoleError("usage: dial <n> (1…\(limit) clockwise, negative counter-clockwise)")
            }
            return .action(.dial(steps: steps))
        case "battery":
            guard words.count == 2, let percent = Double(words[1]), (0...100).contains(percent) else {
                throw GripConsoleError("usage: battery <percent 0-100>")
            }
            return .battery(percent: Int(percent.rounded()))
        default:
            throw GripConsoleError("unknown command '\(verb)'")
        }
    }
}

/// Why a console line was not understood.
struct GripConsoleError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
