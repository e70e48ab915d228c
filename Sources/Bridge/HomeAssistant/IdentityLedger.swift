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
        file = stateDirectory.map { $0 + "/identities.json" }
        self.logger = logger
        var initial: [String: String] = [:]
        if let file {
            do throws(DurableFile.Failure) {
                if let bytes = try DurableFile.read(file, limit: Self.fileLimit) {
                    if case .object(let members)? = JSONValue.parse(bytes) {
                        for (key, value) in members.prefix(Self.limit) {
                            if let identity = value.string { initial[key] = identity }
                        }
                    } else {
                        logger.error("the identities file holds no JSON object; ignored", metadata: ["file": "\(file)"])
                    }
                }
            } catch {
                logger.warning("cannot read the device identities", metadata: ["reason": "\(error.description)"])
            }
        }
        entries = Mutex(initial)
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
            try DurableFile.replace(file, with: Array(JSONValue.object(contents.mapValues { .string($0) }).text.utf8))
        } catch {
            logger.warning("cannot keep the device identities", metadata: ["reason": "\(error.description)"])
        }
    }
}
