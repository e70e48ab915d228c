import Fleet

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A gateway's state directory as one JSON document (`request/backup`, `gatt2mqtt --backup`): what a replaced SD
/// card would otherwise lose. The adopted devices, the identities Home Assistant knows devices by from before 0.10.0,
/// the options changed over MQTT and the fleet incarnation. The configuration file is not in it, nor anything secret:
/// the broker's password and the page's token live in that file (or in files it names), which is the host's to back up,
/// and options can never hold them (`OptionsChange.administratorsOnly`).
///
/// Read back strictly (`parse`): every part is checked as the gateway checks the file it comes from, and anything it
/// does not know is refused, so a restore is whole or not at all (`PendingRestore`).
public struct StateBackup: Sendable, Equatable {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String

        public init(description: String) { self.description = description }
    }

    public static let format = "gatt2mqtt-backup"
    /// The version of the document's layout; a later gatt2mqtt that changes it reads this one still.
    public static let formatVersion = 1
    /// Far above the largest state a gateway keeps (1 024 adoptions and as many identities, the options).
    public static let sizeLimit = 512 * 1024
    /// Said in the document, so that whoever keeps it knows what it does not hold.
    static let notIncluded =
        "the configuration file and the secrets it holds or names (the broker's password, the page's token): "
        + "back them up with the host"

    /// The devices adopted, by address.
    var adopted: AdoptionList
    /// `<family>/<ADDRESS>` → the identity Home Assistant knows the device by (`IdentityLedger`).
    var identities: [String: String]
    /// The options changed over MQTT, nested as in the configuration file (`options.json`).
    public var options: [String: JSONValue]
    /// The last incarnation the gateway started with; nil when it kept none.
    var fleetIncarnation: UInt64?
    /// The gateway it was made on, its version and when: for the person who restores it, and for the log.
    public var gateway: String
    public var madeBy: String
    public var made: String

    /// The state in `stateDirectory` (and the incarnation in `incarnationFile`) as a backup.
    /// - Throws: `Failure` when a file cannot be read or is not whole; a running gateway's files always are (it sets
    ///   a damaged one aside when it starts).
    public static func read(
        stateDirectory: String, incarnationFile: String, gateway: String, now: Date = Date(),
        families: [DeviceFamily] = DeviceFamily.allCases
    ) throws(Failure) -> StateBackup {
        var backup = StateBackup(
            adopted: AdoptionList(), identities: [:], options: [:], fleetIncarnation: nil, gateway: gateway,
            madeBy: Gatt2MQTTVersion.current, made: now.formatted(.iso8601))
        if let bytes = try contents(of: stateDirectory + "/" + StateFiles.adoptions, limit: Adoptions.fileLimit) {
            backup.adopted = try adoptions(JSONValue.parse(bytes), in: StateFiles.adoptions, families: families)
        }
        if let bytes = try contents(of: stateDirectory + "/" + StateFiles.identities, limit: IdentityLedger.fileLimit) {
            backup.identities = try identities(JSONValue.parse(bytes), in: StateFiles.identities, families: families)
        }
        if let bytes = try contents(of: stateDirectory + "/" + StateFiles.options, limit: StateFiles.optionsLimit) {
            guard case .object(let members)? = JSONValue.parse(bytes) else {
                throw Failure(description: "\(StateFiles.options) holds no JSON object of settings")
            }
            backup.options = members
        }
        do {
            let last = try Incarnation.read(incarnationFile)
            backup.fleetIncarnation = last == 0 ? nil : last
        } catch {
            throw Failure(description: "\(error)")
        }
        return backup
    }

    /// The file the gateway keeps its fleet incarnation in: the fleet's setting, else the state directory's default.
    public static func incarnationFile(of configuration: BridgeConfiguration, stateDirectory: String) -> String {
        configuration.fleet?.incarnationFile ?? FleetOptions.incarnationFile(in: stateDirectory)
    }

    static func contents(of file: String, limit: Int) throws(Failure) -> [UInt8]? {
        let bytes: [UInt8]?
        do throws(DurableFile.Failure) {
            bytes = try DurableFile.read(file, limit: limit)
        } catch {
            throw Failure(description: error.description)
        }
        if let bytes, bytes.count > limit { throw Failure(description: "\(file) is over \(limit) bytes") }
        return bytes
    }

    /// The document, as `request/backup` answers it and `--backup` writes it.
    public var json: JSONValue {
        .object([
            "format": .string(Self.format),
            "format_version": .number(Double(Self.formatVersion)),
            "gateway": .string(gateway),
            "gatt2mqtt": .string(madeBy),
            "made": .string(made),
            "adopted": adopted.json,
            "identities": IdentityLedger.json(identities),
            "options": .object(options),
            "fleet_incarnation": fleetIncarnation.map { .number(Double($0)) } ?? .null,
            "not_included": .string(Self.notIncluded),
        ])
    }

    /// A document as `json` writes it, checked whole.
    /// - Throws: `Failure` naming the first member that is missing, unknown or not what the gateway keeps.
    public static func parse(_ bytes: [UInt8], families: [DeviceFamily] = DeviceFamily.allCases) throws(Failure)
        -> StateBackup
    {
        guard bytes.count <= sizeLimit else { throw Failure(description: "a backup is at most \(sizeLimit) bytes") }
        guard let document = JSONValue.parse(bytes) else {
            throw Failure(description: "a backup is a JSON object (as request/backup answers it), and this is no JSON")
        }
        return try parse(document: document, families: families)
    }

    /// `parse`, of a document already read (`request/restore`'s `backup`).
    public static func parse(document: JSONValue, families: [DeviceFamily] = DeviceFamily.allCases) throws(Failure)
        -> StateBackup
    {
        guard case .object(let members) = document else {
            throw Failure(description: "a backup is a JSON object (as request/backup answers it)")
        }
        let known: Set = [
            "format", "format_version", "gateway", "gatt2mqtt", "made", "adopted", "identities", "options",
            "fleet_incarnation", "not_included",
        ]
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw Failure(description: "'\(unknown)' is no member of a backup")
        }
        guard members["format"]?.string == format else {
            throw Failure(description: "'format' must be \"\(format)\": this is no gatt2mqtt backup")
        }
        guard case .number(let version)? = members["format_version"], version == version.rounded(), version >= 1 else {
            throw Failure(description: "'format_version' must be a whole number")
        }
        guard Int(version) <= formatVersion else {
            throw Failure(
                description:
                    "made by a later gatt2mqtt (format \(Int(version))); this one reads format \(formatVersion)"
            )
        }
        func text(_ name: String) throws(Failure) -> String {
            guard let value = members[name]?.string, value.count <= 200 else {
                throw Failure(description: "'\(name)' must be a text of at most 200 characters")
            }
            return value
        }
        guard case .object(let options)? = members["options"] else {
            throw Failure(description: "'options' must be an object of settings, as in the file")
        }
        var incarnation: UInt64?
        switch members["fleet_incarnation"] {
        case .null?: incarnation = nil
        case .number(let value)?
        where value == value.rounded() && value >= 1 && value < Double(ClaimCodec.maximumCounter):
            incarnation = UInt64(value)
        default:
            throw Failure(description: "'fleet_incarnation' must be null or a whole number from 1 to 2^53 − 2")
        }
        return StateBackup(
            adopted: try adoptions(members["adopted"], in: "'adopted'", families: families),
            identities: try identities(members["identities"], in: "'identities'", families: families), options: options,
            fleetIncarnation: incarnation, gateway: try text("gateway"), madeBy: try text("gatt2mqtt"),
            made: try text("made"))
    }

    /// An adoption list with no entry left out: a backup restores what it says, or nothing.
    private static func adoptions(_ value: JSONValue?, in place: String, families: [DeviceFamily]) throws(Failure)
        -> AdoptionList
    {
        guard let value, case .array(let items) = value, items.count <= AdoptionList.limit,
            let (list, leftOut) = AdoptionList.parseReporting(value, families: families)
        else {
            throw Failure(description: "\(place) must be a list of at most \(AdoptionList.limit) adopted devices")
        }
        guard leftOut.count == 0 else {
            let samples = leftOut.samples.joined(separator: ", ")
            throw Failure(description: "\(place) holds entries that name no device of a known family: \(samples)")
        }
        guard list.count == items.count else { throw Failure(description: "\(place) names a device twice") }
        return list
    }

    /// Identities by `<family>/<ADDRESS>`, each a text a Home Assistant `unique_id` is made of.
    private static func identities(_ value: JSONValue?, in place: String, families: [DeviceFamily]) throws(Failure)
        -> [String: String]
    {
        guard case .object(let members)? = value, members.count <= IdentityLedger.limit else {
            throw Failure(description: "\(place) must be an object of at most \(IdentityLedger.limit) identities")
        }
        var identities: [String: String] = [:]
        for (key, value) in members {
            let parts = key.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, families.contains(where: { $0.rawValue == parts[0] }),
                DeviceID.isAddress(String(parts[1])), parts[1] == parts[1].uppercased()
            else {
                throw Failure(description: "\(place): '\(key.prefix(40))' is not <family>/<ADDRESS>")
            }
            guard let identity = value.string, !identity.isEmpty, identity.count <= 255,
                identity.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            else {
                throw Failure(description: "\(place): the identity of \(key) must be a text of 1 to 255 characters")
            }
            identities[key] = identity
        }
        return identities
    }

    /// What it holds, for a log line and the restore's answer.
    public var summary: String {
        let incarnation = fleetIncarnation.map { String($0) } ?? "none"
        return
            "\(adopted.count) adopted devices, \(identities.count) kept identities, \(options.count) option sections, "
            + "fleet incarnation \(incarnation); made on \(gateway) by gatt2mqtt \(madeBy) at \(made)"
    }
}

/// The names of the files a gateway keeps in its state directory (`state_directory`), each read and written whole
/// (`DurableFile`) by the feature that owns it.
public enum StateFiles {
    /// `Adoptions`.
    public static let adoptions = "adopted.json"
    /// `IdentityLedger`.
    public static let identities = "identities.json"
    /// `OptionsOverlay` (DaemonConfiguration), and at most this many bytes.
    public static let options = "options.json"
    public static let optionsLimit = 64 * 1024
    /// `PendingRestore`.
    public static let pendingRestore = "restore.json"
}
