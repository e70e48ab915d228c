/// A line a test writes to the CPR-Band simulator's standard input.
///
/// - `compress <mm>`: one compression with this peak depth now (a depth notification; only while the
///   band practices or evaluates).
/// - `angle <degrees>`: hold the wrist at this angle (−90…89) from now on; `angle auto` lets it sway again.
/// - `battery <raw>` / `battery <percent>%`: what FFF3 reads from now on (`190`, `0xBE`, `50%`).
enum CPRBandConsoleCommand: Equatable {
    case compress(millimetres: UInt8)
    case angle(degrees: Int?)
    case battery(raw: UInt8)

    /// Parses one line; nil for a blank line.
    /// - Throws: `CPRBandConsoleError` with the reason printed after `ERROR`.
    static func parse(_ line: String) throws(CPRBandConsoleError) -> CPRBandConsoleCommand? {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let verb = words.first else { return nil }
        switch verb.lowercased() {
        case "compress":
            guard words.count == 2, let millimetres = UInt8(words[1]) else {
                throw CPRBandConsoleError("usage: compress <mm 0-255>")
            }
            return .compress(millimetres: millimetres)
        case "angle":
            guard words.count == 2 else { throw CPRBandConsoleError("usage: angle <degrees -90..89|auto>") }
            if words[1].lowercased() == "auto" { return .angle(degrees: nil) }
            guard let degrees = Int(words[1]), (-90...89).contains(degrees) else {
                throw CPRBandConsoleError("usage: angle <degrees -90..89|auto>")
            }
            return .angle(degrees: degrees)
        case "battery":
            guard words.count == 2, let battery = CPRBandBatterySpec(argument: words[1]) else {
                throw CPRBandConsoleError("usage: battery <raw 0-255|0xNN|percent%>")
            }
            return .battery(raw: battery.raw)
        default:
            throw CPRBandConsoleError("unknown command '\(verb)'")
        }
    }
}

/// Why a console line was not understood.
struct CPRBandConsoleError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
