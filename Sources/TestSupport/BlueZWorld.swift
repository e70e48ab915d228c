import Foundation

/// Which BlueZ an integration test runs against. One test source serves both: a test takes the world
/// as its parameter (`@Test(arguments: BlueZWorld.enabled)`).
public enum BlueZWorld: String, Sendable, CaseIterable, CustomStringConvertible {
    /// BlueZoo: BlueZ's D-Bus API imitated in user space on a private bus (fast).
    case bluezoo
    /// The real bluetoothd and the kernel's Bluetooth stack, in a qemu guest with btvirt's controllers.
    case real

    public var description: String { rawValue }

    /// How many times longer a test waits for an event by default in this run: the real world's guest runs
    /// under emulation, and a busy machine slows it more than BlueZoo.
    public static var patience: Int { enabled.contains(.real) ? 2 : 1 }

    /// The worlds this run tests: `GATT2MQTT_WORLDS` (comma-separated, e.g. `bluezoo`), else both.
    public static let enabled: [BlueZWorld] = {
        guard let names = ProcessInfo.processInfo.environment["GATT2MQTT_WORLDS"], !names.isEmpty else {
            return allCases
        }
        return names.split(separator: ",").compactMap { BlueZWorld(rawValue: $0.trimmingCharacters(in: .whitespaces)) }
    }()
}
