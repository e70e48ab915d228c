/// Spelling rules for Bluetooth UUIDs as BlueZ reports them: full 128-bit, lower-case.
public enum BluetoothUUID: Sendable {
    /// The part of the Bluetooth base UUID after the 16-bit value.
    public static let baseSuffix = "-0000-1000-8000-00805f9b34fb"

    /// Expands a 16-bit UUID (e.g. `0xFE51`) onto the Bluetooth base UUID.
    public static func expand(_ shortUUID: UInt16) -> String {
        let hex = String(shortUUID, radix: 16)
        return "0000" + String(repeating: "0", count: 4 - hex.count) + hex + baseSuffix
    }

    /// The 16-bit form of a full UUID on the Bluetooth base (`0000fe51-0000-1000-8000-00805f9b34fb` → `fe51`),
    /// the UUID as it is otherwise: how the simulators' traffic logs name a characteristic.
    public static func shortForm(_ uuid: String) -> String {
        guard uuid.count == 36, uuid.hasPrefix("0000"), uuid.hasSuffix(baseSuffix) else { return uuid }
        return String(uuid.dropFirst(4).prefix(4))
    }

    /// Normalises a UUID string: trims, lower-cases, drops a `0x` prefix and expands 16- and 32-bit
    /// forms onto the base UUID, so that `"FE51"`, `"0xfe51"` and the full form compare equal.
    /// Repeated until nothing changes (`"0x0xfe51"`, `"0x fe51"`), so normalising a normalised UUID
    /// changes nothing (fuzz crash-63aa1001).
    public static func normalized(_ uuid: String) -> String {
        // Decoders normalise the UUID of every notification, and it is nearly always BlueZ's spelling
        // already: answer that without Foundation's trimming and case mapping (a benchmark hot spot).
        if isCanonical(uuid) { return uuid }
        var text = uuid
        while true {
            let next = normalizedOnce(text)
            if next == text { return text }
            text = next
        }
    }

    /// Whether `uuid` is already the full lower-case form `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx`.
    static func isCanonical(_ uuid: String) -> Bool {
        var count = 0
        for byte in uuid.utf8 {
            switch (count, byte) {
            case (8, UInt8(ascii: "-")), (13, UInt8(ascii: "-")), (18, UInt8(ascii: "-")), (23, UInt8(ascii: "-")):
                break
            case (8, _), (13, _), (18, _), (23, _): return false
            case (_, UInt8(ascii: "0")...UInt8(ascii: "9")), (_, UInt8(ascii: "a")...UInt8(ascii: "f")): break
            default: return false
            }
            count += 1
        }
        return count == 36
    }

    private static func normalizedOnce(_ uuid: String) -> String {
        var text = uuid.trimming().lowercased()
        if text.hasPrefix("0x") { text.removeFirst(2) }
        let isHex = !text.isEmpty && text.allSatisfy(\.isHexDigit)
        if isHex && text.count == 4 { return "0000" + text + baseSuffix }
        if isHex && text.count == 8 { return text + baseSuffix }
        return text
    }
}
