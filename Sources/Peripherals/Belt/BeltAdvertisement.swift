/// Recognises a belt from what a scan reports (belt.md §1).
///
/// Decision: a name starting with `naviguertel` (any case) is enough, because that is exactly what the
/// Android client does and the name arrives only in the scan response, often after the UUIDs. A name
/// starting with `vs` (Android's development devices) is too generic on its own, so it needs a belt UUID
/// as well. A UUID alone never matches: 65333333-… is shared with unrelated devices (Shimmer, Cypress).
public enum BeltAdvertisement: Sendable {
    /// Name prefix of production belts, lower-case.
    public static let namePrefix = "naviguertel"
    /// Name prefix of development devices, lower-case; accepted only together with a belt UUID.
    public static let developmentNamePrefix = "vs"
    /// UUIDs a belt may advertise: the historical 65333333-… and, on newer belts, the FE51 control service.
    public static let serviceUUIDs = [BeltGATT.advertisedServiceUUID, BeltGATT.Service.control]

    /// Whether a scanned device is a belt, from its name and advertised service UUIDs (any spelling).
    public static func matches(name: String?, serviceUUIDs: [String]) -> Bool {
        guard let name else { return false }
        let lowerName = name.lowercased()
        if lowerName.hasPrefix(namePrefix) { return true }
        let advertisesBeltService = serviceUUIDs.contains { Self.serviceUUIDs.contains(BluetoothUUID.normalized($0)) }
        return advertisesBeltService && lowerName.hasPrefix(developmentNamePrefix)
    }
}
