import Peripherals

/// A line a test writes to the belt simulator's standard input.
///
/// - `button <power|pause|compass|home> <short|long>`: a press on the control box.
/// - `mode <standby|wait|compass|app|pause|calibration|crossing>`: the belt changes mode by itself
///   (announced as FE06 `01 01 m`); standby switches it off, any other mode from standby on again.
/// - `battery <percent>`: sets the charge level and notifies FE09.
/// - `notify <characteristic> <hex>`: sends exactly these bytes (malformed on purpose, for robustness
///   tests) on a characteristic given as `fe0c` or a full UUID; `-` sends an empty value.
enum BeltConsoleCommand: Equatable {
    case button(BeltButton, long: Bool)
    case mode(BeltMode)
    case battery(percent: Double)
    case raw(characteristic: String, bytes: [UInt8])

    /// Parses one line; nil for a blank line.
    /// - Throws: `BeltConsoleError` with the reason printed after `ERROR`.
    static func parse(_ line: String) throws(BeltConsoleError) -> BeltConsoleCommand? {
        let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let verb = words.first else { return nil }
        switch verb.lowercased() {
        case "button":
            guard words.count == 3 else {
                throw BeltConsoleError("usage: button <power|pause|compass|home> <short|long>")
            }
            guard let button = BeltButton(name: words[1]) else {
                throw BeltConsoleError("unknown button '\(words[1])'")
            }
            guard let long = PressKind.isLong(words[2]) else { throw BeltConsoleError("unknown press '\(words[2])'") }
            return .button(button, long: long)
        case "mode":
            guard words.count == 2 else { throw BeltConsoleError("usage: mode <name>") }
            guard let mode = BeltMode(name: words[1]) else { throw BeltConsoleError("unknown mode '\(words[1])'") }
            return .mode(mode)
        case "battery":
            guard words.count == 2, let percent = Double(words[1]), (0...100).contains(percent) else {
                throw BeltConsoleError("usage: battery <percent 0-100>")
            }
            return .battery(percent: percent)
        case "notify":
            guard words.count == 3 else { throw BeltConsoleError("usage: notify <characteristic> <hex|->") }
            let uuid = BluetoothUUID.normalized(words[1])
            guard BeltGATT.characteristic(uuid) != nil else {
                throw BeltConsoleError("no belt characteristic '\(words[1])'")
            }
            guard let bytes = Self.bytes(words[2]) else { throw BeltConsoleError("not hex: '\(words[2])'") }
            return .raw(characteristic: uuid, bytes: bytes)
        default:
            throw BeltConsoleError("unknown command '\(verb)'")
        }
    }
}

extension BeltConsoleCommand {
    /// Pairs of hex digits; `-` is no bytes.
    static func bytes(_ text: String) -> [UInt8]? {
        text == "-" ? [] : [UInt8](hex: text)
    }
}

/// Why a console line was not understood.
struct BeltConsoleError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
