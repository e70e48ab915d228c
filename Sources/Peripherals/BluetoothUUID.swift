import Foundation

/// Spelling rules for Bluetooth UUIDs as BlueZ reports them: full 128-bit, lower-case.
public enum BluetoothUUID: Sendable {
    /// The part of the Bluetooth base UUID after the 16-bit value.
    public static let baseSuffix = "-0000-1000-8000-00805f9b34fb"

    /// Expands a 16-bit UUID (e.g. `0xFE51`) onto the Bluetooth base UUID.
    public static func expand(_ shortUUID: UInt16) -> String {
        let hex = String(shortUUID, radix: 16)
        return "0000" + String(repeating: "0", count: 4 - hex.count) + hex + baseSuffix
    }

    /// Normalises a UUID string: trims, lower-cases, drops a `0x` prefix and expands 16- and 32-bit
    /// forms onto the base UUID, so that `"FE51"`, `"0xfe51"` and the full form compare equal.
    /// Repeated until nothing changes (`"0x0xfe51"`, `"0x fe51"`), so normalising a normalised UUID
    /// changes nothing (fuzz crash-63aa1001).
    public static func normalized(_ uuid: String) -> String {
        var text = uuid
        while true {
            let next = normalizedOnce(text)
            if next == text { return text }
            text = next
        }
    }

    private static func normalizedOnce(_ uuid: String) -> String {
        var text = uuid.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasPrefix("0x") { text.removeFirst(2) }
        let isHex = !text.isEmpty && text.allSatisfy(\.isHexDigit)
        if isHex && text.count == 4 { return "0000" + text + baseSuffix }
        if isHex && text.count == 8 { return text + baseSuffix }
        return text
    }
}
