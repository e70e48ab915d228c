import BlueZ

/// The retained `gatt2mqtt/<gateway>/devices` list: every device of a known family this gateway sees,
/// with its state. Pure: built from BlueZ's devices and the sessions' states.
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

        var json: JSONValue {
            var members: [String: JSONValue] = [
                "address": .string(address), "id": .string(id), "family": .string(family.rawValue),
                "state": .string(state), "paired": .bool(paired),
            ]
            if let name { members["name"] = .string(name) }
            if let rssi { members["rssi"] = .number(Double(rssi)) }
            if let adapter { members["adapter"] = .string(adapter) }
            return .object(members)
        }
    }

    var entries: [Entry]

    /// JSON without RSSI: the retained list changes with the devices and their states, not with every
    /// RSSI report (the `devices` request and `scan` results carry RSSI).
    var retainedText: String {
        JSONValue.array(entries.map { entry in
            var stable = entry
            stable.rssi = nil
            return stable.json
        }).text
    }

    var json: JSONValue { .array(entries.map(\.json)) }
}
