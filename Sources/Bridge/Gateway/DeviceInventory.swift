import BlueZ

/// The retained `gatt2mqtt/<gateway>/devices` list: every device of a known family this gateway sees and has
/// adopted, with its state; the `devices` request's answer lists the others too. Pure: built from BlueZ's devices
/// and the sessions' states.
struct DeviceInventory: Sendable {
    struct Entry: Sendable, Equatable {
        var address: String
        var id: String
        var family: DeviceFamily
        var name: String?
        var state: String
        var rssi: Int16?
        var paired: Bool
        /// The adapter that serves it; nil without a session.
        var adapter: String? = nil
        /// Whether it is one of the gateway's (`DeviceSessions.isAdopted`), or a stranger that was only seen.
        var adopted = true

        var json: JSONValue {
            var members: [String: JSONValue] = [
                "address": .string(address), "id": .string(id), "family": .string(family.rawValue),
                "state": .string(state), "paired": .bool(paired), "adopted": .bool(adopted),
            ]
            if let name { members["name"] = .string(name) }
            if let rssi { members["rssi"] = .number(Double(rssi)) }
            if let adapter { members["adapter"] = .string(adapter) }
            return .object(members)
        }
    }

    var entries: [Entry]

    /// JSON of the adopted devices, without RSSI: the retained list changes with the devices and their states, not
    /// with every RSSI report (the `devices` request and `scan` results carry RSSI), and strangers in radio range
    /// leave nothing retained.
    var retainedText: String {
        JSONValue.array(
            entries.filter(\.adopted).map { entry in
                var stable = entry
                stable.rssi = nil
                return stable.json
            }
        ).text
    }

    var json: JSONValue { .array(entries.map(\.json)) }
}
