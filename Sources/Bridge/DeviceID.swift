/// The `<id>` in a device's topics: its Bluetooth address in lower-case hex without colons
/// (`AA:BB:CC:DD:EE:FF` → `aabbccddeeff`). Only hex digits survive, so an id can never carry
/// `+`, `#`, `/` or NUL into a topic.
public enum DeviceID {
    public static func from(address: String) -> String {
        String(address.lowercased().unicodeScalars.filter { ("0"..."9").contains($0) || ("a"..."f").contains($0) }.map(Character.init))
    }
}
