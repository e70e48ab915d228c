/// The devices a gateway has adopted: the only ones it connects and announces under `auto_connect: adopted`, by
/// address, with the family each was adopted as. Written as a JSON array (`[{"address":…,"family":…}]`) both to
/// the state directory and, retained, to `gatt2mqtt/<gateway>/adopted` for the fleet. Bounded: it grows only by
/// this gateway's own choices (a request, a join window, a take-over), but join windows in a crowded room could offer
/// more. Another gateway's list never goes in here (`PeerAdoptions`).
struct AdoptionList: Sendable, Equatable {
    /// Upper-case address with colons → family.
    private(set) var families: [String: DeviceFamily] = [:]

    static let limit = 1024

    var addresses: Set<String> { Set(families.keys) }
    var isEmpty: Bool { families.isEmpty }
    var count: Int { families.count }

    func contains(_ address: String) -> Bool { families[address.uppercased()] != nil }

    /// Adopts `address`; false when it was adopted already as that family, or the list is full.
    @discardableResult
    mutating func adopt(_ address: String, as family: DeviceFamily) -> Bool {
        let address = address.uppercased()
        guard families[address] != family else { return false }
        guard families[address] != nil || families.count < Self.limit else { return false }
        families[address] = family
        return true
    }

    @discardableResult
    mutating func remove(_ address: String) -> Bool { families.removeValue(forKey: address.uppercased()) != nil }

    /// Sorted by address, so that the same list is always the same bytes (a retained topic is republished only when
    /// it changes).
    var json: JSONValue {
        .array(
            families.sorted { $0.key < $1.key }.map {
                .object(["address": .string($0.key), "family": .string($0.value.rawValue)])
            })
    }

    /// A list from its JSON: entries that are not an object with a Bluetooth address and a known family are left
    /// out, as is everything beyond `limit`; nil when the whole is not a JSON array.
    static func parse(_ bytes: [UInt8], families: [DeviceFamily] = DeviceFamily.allCases) -> AdoptionList? {
        parseReporting(bytes, families: families)?.list
    }

    /// `parse`, saying what it left out.
    static func parseReporting(_ bytes: [UInt8], families: [DeviceFamily] = DeviceFamily.allCases)
        -> (list: AdoptionList, leftOut: LeftOut)?
    {
        JSONValue.parse(bytes).flatMap { parseReporting($0, families: families) }
    }

    /// `parseReporting`, of JSON already read (a backup's `adopted`).
    static func parseReporting(_ value: JSONValue, families: [DeviceFamily] = DeviceFamily.allCases)
        -> (list: AdoptionList, leftOut: LeftOut)?
    {
        guard case .array(let items) = value else { return nil }
        var list = AdoptionList()
        var leftOut = LeftOut()
        for (index, item) in items.enumerated() {
            guard index < limit, case .object(let members) = item, let address = members["address"]?.string,
                let familyName = members["family"]?.string,
                let family = families.first(where: { $0.rawValue == familyName }),
                DeviceID.isAddress(address)
            else {
                leftOut.note(item)
                continue
            }
            list.adopt(address, as: family)
        }
        return (list, leftOut)
    }

    /// The entries `parse` left out: how many, and the first few as they were written, each cut short, so that a
    /// log line naming them stays short whatever the list holds.
    struct LeftOut: Sendable, Equatable {
        static let samplesKept = 5
        static let sampleLength = 40

        private(set) var count = 0
        /// The address an entry gave, else the entry's JSON.
        private(set) var samples: [String] = []

        mutating func note(_ item: JSONValue) {
            count += 1
            guard samples.count < Self.samplesKept else { return }
            let text: String =
                if case .object(let members) = item, let address = members["address"]?.string {
                    address
                } else {
                    item.text
                }
            samples.append(text.count > Self.sampleLength ? text.prefix(Self.sampleLength) + "…" : text)
        }
    }
}
