import Bridge
import Peripherals

/// Reads a device declaration (issue #59) from YAML with the project's own reader, checked whole: every refusal
/// names the file and the line. What a declaration looks like: docs/devices.md.
public enum DeclarationReader {
    /// The longest declaration file read: far above any real one.
    public static let sizeLimit = 256 * 1024

    /// Leaves every device has, which no declared topic may take.
    static let reservedLeaves: Set<String> = [
        "connection", "info", "error", "cmd", "reply", "last_seen", "rssi", "owner", "set", "battery",
    ]

    /// Battery (0x180F) and Device Information (0x180A): the gateway reads them for every declared device.
    static let standardServices: Set<String> = [BluetoothUUID.expand(0x180F), BluetoothUUID.expand(0x180A)]
    /// The Battery Level (0x2A19), in whatever service: every declared device's `battery` is the gateway's, from it.
    static let batteryLevel = BluetoothUUID.expand(0x2A19)

    /// The declaration in the file at `path`, read as `read(_:file:takenFamilies:)` reads its text.
    public static func read(file path: String, takenFamilies: Set<String>) throws(DeclarationError) -> DeviceDeclaration
    {
        let bytes: [UInt8]?
        do throws(DurableFile.Failure) {
            bytes = try DurableFile.read(path, limit: sizeLimit)
        } catch {
            throw DeclarationError(file: path, line: 1, message: error.description)
        }
        guard let bytes else { throw DeclarationError(file: path, line: 1, message: "no such file") }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw DeclarationError(file: path, line: 1, message: "not UTF-8 text")
        }
        return try read(text, file: path, takenFamilies: takenFamilies)
    }

    /// The declaration in `text`, read from `file` (for messages). `takenFamilies`: the names no declaration may
    /// have (the written families').
    public static func read(
        _ text: String, file: String, takenFamilies: Set<String>
    ) throws(DeclarationError) -> DeviceDeclaration {
        guard text.utf8.count <= sizeLimit else {
            throw DeclarationError(file: file, line: 1, message: "longer than \(sizeLimit) bytes")
        }
        let parsed: YAMLNode?
        do throws(YAMLSyntaxError) {
            parsed = try YAMLParser.parse(text)
        } catch {
            throw DeclarationError(file: file, line: error.line, message: error.message)
        }
        guard let root = parsed else {
            throw DeclarationError(file: file, line: 1, message: "empty: a declaration names at least a family")
        }
        let top = try DeclarationMapping(
            root, file: file, what: "a declaration", keys: ["family", "label", "match", "characteristics", "commands"])
        let family = try top.requiredText("family")
        guard isName(family) else {
            throw top.error(
                top.value("family") ?? root,
                "family must be 1 to 32 lower-case letters, digits or _, starting with a letter")
        }
        guard !takenFamilies.contains(family) else {
            throw top.error(top.value("family") ?? root, "family '\(family)' is a written family's")
        }
        let label = try top.requiredText("label")
        guard DeviceOptions.isValidName(label) else {
            throw top.error(top.value("label") ?? root, "label must be 1 to 64 characters, none a control character")
        }
        let match = try readMatch(top)
        guard let list = top.value("characteristics"), case .sequence(let items) = list.content, !items.isEmpty else {
            throw top.error(top.value("characteristics") ?? root, "characteristics must be a list of one or more")
        }
        var characteristics: [DeclaredCharacteristic] = []
        var leaves: [String: Int] = [:]
        for item in items {
            let characteristic = try readCharacteristic(item, file: file)
            for leaf in characteristic.leaves {
                if let earlier = leaves.updateValue(item.line, forKey: leaf) {
                    throw DeclarationError(
                        file: file, line: item.line, message: "topic leaf '\(leaf)' is published on line \(earlier) too"
                    )
                }
            }
            characteristics.append(characteristic)
        }
        let commands = try readCommands(top.value("commands"), characteristics: characteristics, file: file)
        return DeviceDeclaration(
            family: family, label: label, match: match, characteristics: characteristics, commands: commands)
    }

    /// 1 to 32 of `a-z`, `0-9` and `_` (the alphabet of command names), starting with a letter.
    static func isName(_ text: String) -> Bool { DeviceFamily.isValidName(text) }

    /// A name a declared topic leaf may have: one no device topic has already.
    static func isLeaf(_ text: String) -> Bool { isName(text) && !reservedLeaves.contains(text) }

    static let leafRule = "must be a name of lower-case letters, digits or _ that no device topic has"

    private static func readMatch(_ top: DeclarationMapping) throws(DeclarationError) -> DeviceDeclaration.Match {
        guard let node = top.value("match") else { throw top.error(top.node, "match is missing") }
        let match = try DeclarationMapping(
            node, file: top.file, what: "match", keys: ["name_prefixes", "services", "manufacturers"])
        var result = DeviceDeclaration.Match()
        result.namePrefixes = try match.texts("name_prefixes")
        for prefix in result.namePrefixes where prefix.isEmpty || prefix.count > 32 {
            throw match.error(node, "a name prefix must be 1 to 32 characters")
        }
        for service in try match.texts("services") {
            result.services.append(try uuid(service, in: match, key: "services"))
        }
        for manufacturer in try match.texts("manufacturers") {
            guard let id = integer(manufacturer), let value = UInt16(exactly: id) else {
                throw match.error(
                    node,
                    "a manufacturer must be a company identifier, 0 to 0xFFFF, not '\(DeclarationMapping.shown(manufacturer))'"
                )
            }
            result.manufacturers.append(value)
        }
        guard !result.isEmpty else {
            throw match.error(
                node, "match needs a name prefix, a service or a manufacturer: nothing would be recognised")
        }
        return result
    }

    private static func readCharacteristic(_ node: YAMLNode, file: String) throws(DeclarationError)
        -> DeclaredCharacteristic
    {
        let entry = try DeclarationMapping(
            node, file: file, what: "a characteristic",
            keys: ["uuid", "service", "access", "every_s", "topic", "retain", "fields"])
        let uuid = try uuid(try entry.requiredText("uuid"), in: entry, key: "uuid")
        let service = try self.uuid(try entry.requiredText("service"), in: entry, key: "service")
        guard !standardServices.contains(service) else {
            throw entry.error(
                entry.value("service") ?? node,
                "the Battery and Device Information services are read for every declared device; declare neither")
        }
        guard uuid != batteryLevel else {
            throw entry.error(
                entry.value("uuid") ?? node,
                "the Battery Level (2A19) is every declared device's `battery`; leave it out")
        }
        let access: DeclaredCharacteristic.Access
        switch try entry.requiredText("access") {
        case "read": access = .read
        case "notify": access = .notify
        case "indicate": access = .indicate
        case "poll":
            guard let text = try entry.text("every_s"), let seconds = Double(text),
                let interval = PeriodicInterval.duration(seconds: seconds)
            else {
                throw entry.error(
                    entry.value("every_s") ?? node, "poll needs every_s, a number of seconds from 1 to 86400")
            }
            access = .poll(interval)
        case let other:
            throw entry.error(
                entry.value("access") ?? node,
                "access must be read, poll, notify or indicate, not '\(DeclarationMapping.shown(other))'")
        }
        if case .poll = access {
        } else if entry.value("every_s") != nil {
            throw entry.error(entry.value("every_s") ?? node, "every_s is for access: poll only")
        }
        let topic = try entry.text("topic")
        if let topic, !isLeaf(topic) { throw entry.error(entry.value("topic") ?? node, "topic \(leafRule)") }
        let streams = access == .notify || access == .indicate
        let retain = try entry.flag("retain") ?? !streams
        guard let list = entry.value("fields"), case .sequence(let items) = list.content, !items.isEmpty else {
            throw entry.error(entry.value("fields") ?? node, "fields must be a list of one or more")
        }
        let fields = try readFields(items, file: file, inJSONTopic: topic != nil)
        return DeclaredCharacteristic(
            uuid: uuid, service: service, access: access, topic: topic, retain: retain, fields: fields)
    }

    /// `2A5B`, `0x2a5b` or a full UUID, as BlueZ spells it.
    static func uuid(_ text: String, in mapping: DeclarationMapping, key: String) throws(DeclarationError) -> String {
        let normalized = BluetoothUUID.normalized(text)
        let hex = normalized.unicodeScalars.filter { $0 != "-" }
        guard normalized.count == 36, hex.count == 32, hex.allSatisfy({ $0.properties.isASCIIHexDigit }) else {
            throw mapping.error(
                mapping.value(key) ?? mapping.node,
                "\(key): '\(DeclarationMapping.shown(text))' is not a Bluetooth UUID (2A37, or the full form)")
        }
        return normalized
    }

    /// A decimal or `0x` hexadecimal integer.
    static func integer(_ text: String) -> Int64? {
        if text.hasPrefix("0x") || text.hasPrefix("0X") { return Int64(text.dropFirst(2), radix: 16) }
        return Int64(text)
    }
}
