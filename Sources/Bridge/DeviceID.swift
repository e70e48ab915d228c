/// The `<id>` in a device's topics: its Bluetooth address in lower-case hex without colons
/// (`AA:BB:CC:DD:EE:FF` → `aabbccddeeff`). Only hex digits survive, so an id can never carry
/// `+`, `#`, `/` or NUL into a topic.
public enum DeviceID {
    public static func from(address: String) -> String {
        String(
            address.lowercased().unicodeScalars.filter { ("0"..."9").contains($0) || ("a"..."f").contains($0) }.map(
                Character.init))
    }

    /// Whether `text` could be a device's default `<id>` (12 hex digits): no alias may be, as it could be another
    /// device's.
    public static func looksLikeAddressID(_ text: String) -> Bool {
        text.count == 12 && text.allSatisfy(\.isHexDigit)
    }

    /// Whether `text` is a Bluetooth address as BlueZ spells it: six pairs of hex digits (either case) between colons.
    public static func isAddress(_ text: String) -> Bool {
        let pairs = text.split(separator: ":", omittingEmptySubsequences: false)
        return pairs.count == 6 && pairs.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}
