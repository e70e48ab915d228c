import TestSupport
import Testing

extension ManagedProcess {
    /// The Bluetooth address a virtual peripheral announced on its `READY <family> <address> <name>` line.
    var simulatedAddress: String {
        get throws {
            let ready = try #require(lines.first { $0.text.hasPrefix("READY ") }?.text, "the simulator said READY")
            return String(ready.split(separator: " ")[2])
        }
    }

    /// The family a virtual peripheral announced on its READY line: the first level of its topics.
    var simulatedFamily: String {
        get throws {
            let ready = try #require(lines.first { $0.text.hasPrefix("READY ") }?.text, "the simulator said READY")
            return String(ready.split(separator: " ")[1])
        }
    }

    /// The peripheral's `<id>` in topics: its address in lower-case hex without colons.
    var simulatedID: String {
        get throws { try simulatedAddress.lowercased().replacingOccurrences(of: ":", with: "") }
    }
}
