/// Recognises an Activ5 from what a scan reports (activ5.md §1).
///
/// Decision: either signal is enough. iOS and Web filter on the advertised service 0x5000 alone; Android
/// filters on the name alone (it must contain `TAO`, the earlier brand, or `ACTIV`, e.g. `ACTIV5-AC-4706`).
/// The name test is case-sensitive like Android's `String.contains`, so ordinary words such as "Stao…" or
/// "activity" in lower case do not match.
public enum Activ5Advertisement: Sendable {
    /// Substrings of the local name that Android accepts.
    public static let nameMarkers = ["TAO", "ACTIV"]

    /// Whether a scanned device is an Activ5, from its local name and advertised service UUIDs (any spelling).
    public static func matches(name: String?, serviceUUIDs: [String]) -> Bool {
        if serviceUUIDs.contains(where: { BluetoothUUID.normalized($0) == Activ5GATT.advertisedServiceUUID }) {
            return true
        }
        guard let name else { return false }
        return nameMarkers.contains { name.contains($0) }
    }
}
