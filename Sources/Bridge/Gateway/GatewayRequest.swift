/// A request to the gateway itself, on `gatt2mqtt/<gateway>/request/<name>`.
public enum GatewayRequest: Sendable, Equatable {
    /// Reports every device seen for `seconds` on `gatt2mqtt/<gateway>/scan`.
    case scan(seconds: Int)
    /// Connects a device (and keeps it connected); `family` when its advertisement does not tell.
    case connect(address: String, family: DeviceFamily?)
    /// Disconnects a device and leaves it disconnected until `connect`.
    case disconnect(address: String)
    /// Pairs (bonds) with a device and trusts it.
    case pair(address: String)
    /// Disconnects, removes the bond and forgets the device.
    case forget(address: String)
    /// Gives a device another `<id>` at once (`devices.aliases`): `alias` nil gives it back its address's.
    case rename(address: String, alias: String?)
    /// Answers with the inventory.
    case devices
    /// Opens the join window for `seconds` (0 closes it): devices of a known family seen meanwhile are adopted.
    case permitJoin(seconds: Int)
    /// Answers, then ends the gateway cleanly for its supervisor to start it again (`RestartService`).
    case restart
    /// Changes settings, nested as in the configuration file (`GatewayOptionsHandler`).
    case options([String: JSONValue])
    /// Answers with the state directory as one document (`StateBackup`).
    case backup
    /// Stages a backup, checked whole, for the next start (`PendingRestore`), then restarts as `restart` does.
    case restore(StateBackup)

    /// Whether it is one of the privileged requests (`PrivilegedRequests`), which change the gateway rather than use it.
    var isPrivileged: Bool {
        switch self {
        case .restart, .options, .restore, .rename: true
        default: false
        }
    }

    /// Whether the gateway ends, for its supervisor to start it again, once the request is answered.
    var restartsOnceAnswered: Bool {
        switch self {
        case .restart, .restore: true
        default: false
        }
    }

    /// Every request's name, as in its topic.
    public static let names = [
        "scan", "connect", "disconnect", "pair", "forget", "rename", "devices", "permit_join", "restart", "options",
        "backup", "restore",
    ]

    static func parse(name: String, payload: CommandPayload, families: [DeviceFamily] = DeviceFamily.allCases)
        throws(CommandError)
        -> GatewayRequest
    {
        switch name {
        case "scan":
            try payload.rejectUnknownFields(allowed: ["duration_s", "value"])
            let seconds = try payload.optionalInteger(
                payload.fields["duration_s"] != nil ? "duration_s" : "value", in: 1...600)
            return .scan(seconds: seconds ?? 10)
        case "connect":
            try payload.rejectUnknownFields(allowed: ["address", "family", "value"])
            let familyName = try payload.optionalString("family")
            var family: DeviceFamily?
            if let familyName {
                // Whether this gateway serves it (a written family or a declared one) is the executor's to say.
                guard DeviceFamily.isValidName(familyName) else {
                    throw CommandError(.invalidValue, "'family' must be a family's name (a-z, 0-9, _)")
                }
                family = DeviceFamily(declaring: familyName)
            }
            return .connect(address: try address(payload), family: family)
        case "disconnect": return .disconnect(address: try address(payload, only: true))
        case "pair": return .pair(address: try address(payload, only: true))
        case "forget": return .forget(address: try address(payload, only: true))
        case "rename":
            try payload.rejectUnknownFields(allowed: ["address", "name"])
            guard payload.fields["name"] != nil else {
                throw CommandError(.invalidValue, "'name' is required: the device's new id, or \"\" for its address's")
            }
            let name = try payload.optionalString("name") ?? ""
            guard name.isEmpty || (TopicMap.isValidDeviceID(name) && !DeviceID.looksLikeAddressID(name)) else {
                throw CommandError(
                    .invalidValue,
                    "'name' must be 1 to 64 lower-case letters, digits, '-' or '_', and not 12 hex digits (another "
                        + "device's address may be that), or \"\" for the device's address")
            }
            return .rename(address: try address(payload), alias: name.isEmpty ? nil : name)
        case "devices":
            try payload.rejectUnknownFields(allowed: [])
            return .devices
        case "restart":
            try payload.rejectUnknownFields(allowed: [])
            return .restart
        case "options":
            try payload.rejectUnknownFields(allowed: ["options"])
            guard case .object(let members)? = payload.fields["options"] else {
                throw CommandError(.invalidValue, "'options' must be an object of settings, as in the file")
            }
            return .options(members)
        case "backup":
            try payload.rejectUnknownFields(allowed: [])
            return .backup
        case "restore":
            try payload.rejectUnknownFields(allowed: ["backup"])
            guard let document = payload.fields["backup"] else {
                throw CommandError(.invalidValue, "'backup' must be the document request/backup answered with")
            }
            do throws(StateBackup.Failure) {
                return .restore(try StateBackup.parse(document: document, families: families))
            } catch {
                throw CommandError(.invalidValue, "the backup: \(error.description)")
            }
        case "permit_join":
            try payload.rejectUnknownFields(allowed: ["duration_s", "value"])
            let seconds = try payload.optionalInteger(
                payload.fields["duration_s"] != nil ? "duration_s" : "value", in: 0...JoinWindow.longest)
            return .permitJoin(seconds: seconds ?? JoinWindow.usual)
        default:
            throw CommandError(.unknownCommand, "unknown request '\(name)'; known: \(names.joined(separator: ", "))")
        }
    }

    /// `AA:BB:CC:DD:EE:FF` (any case), or the `<id>` form `aabbccddeeff`; returned upper-case with colons.
    private static func address(_ payload: CommandPayload, only: Bool = false) throws(CommandError) -> String {
        if only { try payload.rejectUnknownFields(allowed: ["address", "value"]) }
        let text = try payload.string("address", orValue: true)
        let hex = DeviceID.from(address: text)
        let plain = text.filter { $0 != ":" }.lowercased()
        guard hex.count == 12, plain == hex else {
            throw CommandError(.invalidValue, "'address' must be a Bluetooth address such as AA:BB:CC:DD:EE:FF")
        }
        return stride(from: 0, to: 12, by: 2).map { offset -> String in
            let start = hex.index(hex.startIndex, offsetBy: offset)
            return hex[start..<hex.index(start, offsetBy: 2)].uppercased()
        }.joined(separator: ":")
    }
}

/// Which devices connect without being asked.
public enum AutoConnectPolicy: Sendable, Equatable {
    /// Devices adopted (by a request, the page or a join window: `Adoptions`) and these addresses (the default).
    case adopted(Set<String>)
    /// Every device of a known family: anyone in radio range who advertises a family's name gets a slot. For
    /// closed rooms only.
    case all
    /// Only these addresses (upper-case, with colons).
    case allowList(Set<String>)
    /// None: only `connect` requests.
    case none

    /// As the setting spells it.
    public var name: String {
        switch self {
        case .adopted: "adopted"
        case .all: "all"
        case .allowList: "allowed"
        case .none: "none"
        }
    }

    func allows(_ address: String) -> Bool {
        switch self {
        case .all: true
        case .allowList(let addresses), .adopted(let addresses): addresses.contains(address.uppercased())
        case .none: false
        }
    }

    /// Whether a device without a session here keeps its Home Assistant configs from the sweep: the policy allows it,
    /// or it is adopted and the policy is not an allow list. An allow list names the only devices the users want:
    /// a device an earlier run served (adopted on an upgrade) or adopted before the list was given stays out of Home
    /// Assistant, as topics.md says, instead of keeping its configs for ever.
    func keepsAnnounced(_ address: String, adopted: Bool) -> Bool {
        if allows(address) { return true }
        if case .allowList = self { return false }
        return adopted
    }
}
