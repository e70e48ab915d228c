import Locks
import Logging

/// The identities Home Assistant knew devices by before they came from the address: a device a release before 0.10.0
/// announced under its alias (`fleet_belt_front-belt`) keeps that identity for good, so that its entities, their
/// history and every automation stay its own. Home Assistant matches entities by `unique_id` and has no way to
/// change one over MQTT, so the old identity is kept rather than moved. Found once in the broker's retained configs
/// (`OwnConfigs`), then kept in `<state directory>/identities.json`: it survives a broker that lost its retained
/// messages. Devices Home Assistant first met under 0.10.0 or later are not in it: theirs is their address.
final class IdentityLedger: Sendable {
    /// `<state directory>/identities.json`; nil keeps the ledger in memory only.
    let file: String?
    private let logger: Logger
    /// `<family>/<ADDRESS>` → identity.
    private let entries: Mutex<[String: String]>

    /// At most this many entries: as many devices as can be adopted.
    static let limit = AdoptionList.limit
    static let fileLimit = 128 * 1024

    init(stateDirectory: String?, logger: Logger) {
        file = stateDirectory.map { $0 + "/" + StateFiles.identities }
        self.logger = logger
        entries = Mutex(file.map { Self.read($0, logger: logger) } ?? [:])
    }

    /// The identities kept in `file`. One that is no regular file or no JSON object of names, or has entries that
    /// are not, is set aside rather than overwritten at the next write: the identities it held are in no other
    /// place once the broker's retained configs are gone.
    private static func read(_ file: String, logger: Logger) -> [String: String] {
        let bytes: [UInt8]?
        do throws(DurableFile.Failure) {
            bytes = try DurableFile.read(file, limit: fileLimit)
        } catch  where error.notAFile {
            setAside(file, logger: logger, "the identities file is no regular file", ["reason": "\(error.reason)"])
            return [:]
        } catch {
            logger.warning("cannot read the device identities", metadata: ["reason": "\(error.description)"])
            return [:]
        }
        guard let bytes else { return [:] }
        guard bytes.count <= fileLimit, case .object(let members)? = JSONValue.parse(bytes) else {
            setAside(file, logger: logger, "the identities file holds no JSON object", [:])
            return [:]
        }
        var identities: [String: String] = [:]
        for (key, value) in members.prefix(limit) {
            if let identity = value.string { identities[key] = identity }
        }
        if identities.count < members.count {
            setAside(
                file, keeping: identities, logger: logger, "the identities file holds entries that are no identity",
                ["left_out": "\(members.count - identities.count)", "kept": "\(identities.count)"])
        }
        return identities
    }

    /// Sets the file aside, writes what it kept of it, and says so in one line.
    private static func setAside(
        _ file: String, keeping identities: [String: String] = [:], logger: Logger, _ problem: String,
        _ details: Logger.Metadata
    ) {
        var metadata = details
        metadata["file"] = "\(file)"
        do throws(DurableFile.Failure) {
            metadata["set_aside_as"] = "\(try DurableFile.setAside(file))"
            if !identities.isEmpty { try DurableFile.replace(file, with: text(identities)) }
        } catch {
            metadata["cannot_set_aside"] = "\(error.description)"
        }
        logger.error("\(problem); the identities it held are read again from the broker's configs", metadata: metadata)
    }

    private static func key(_ family: DeviceFamily, _ address: String) -> String {
        "\(family.rawValue)/\(address.uppercased())"
    }

    func identity(of family: DeviceFamily, at address: String) -> String? {
        entries.withLock { $0[Self.key(family, address)] }
    }

    /// Keeps `identity` for the device (when it is new and there is room), and writes the file.
    func keep(_ identity: String, of family: DeviceFamily, at address: String) {
        let key = Self.key(family, address)
        let contents = entries.withLock { entries -> [String: String]? in
            guard entries[key] != identity, entries[key] != nil || entries.count < Self.limit else { return nil }
            entries[key] = identity
            return entries
        }
        guard let contents else { return }
        logger.notice(
            "device keeps the identity Home Assistant knows it by",
            metadata: ["device": "\(key)", "identity": "\(identity)"])
        guard let file else { return }
        do throws(DurableFile.Failure) {
            try DurableFile.createFolder(of: file)
            try DurableFile.replace(file, with: Self.text(contents))
        } catch {
            logger.warning("cannot keep the device identities", metadata: ["reason": "\(error.description)"])
        }
    }

    private static func text(_ identities: [String: String]) -> [UInt8] { Array(json(identities).text.utf8) }

    /// The identities as the file (and a backup) holds them: `{"<family>/<ADDRESS>":"<identity>"}`.
    static func json(_ identities: [String: String]) -> JSONValue { .object(identities.mapValues { .string($0) }) }
}
