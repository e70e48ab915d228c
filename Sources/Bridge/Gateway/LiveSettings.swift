import Locks

/// The settings a gateway changes at run time (`request/options`), read by every feature that follows them instead of
/// the configuration it started with: which devices connect by themselves, the devices' ids (`devices.aliases`, which
/// `request/rename` changes), what was chosen for single devices (`DeviceOptions`) and the settings in effect its
/// `info` shows. Everything else stays as started until a restart.
final class LiveSettings: Sendable {
    private struct State {
        var autoConnect: AutoConnectPolicy
        var aliases: [String: String]
        var deviceOptions: [String: DeviceOptions]
        var settingsInEffect: JSONValue?
    }

    private let state: Mutex<State>

    /// The key paths a change applies at once; any other needs a restart.
    static let appliedAtRunTime: Set<String> = [
        "devices.auto_connect", "devices.allow", "devices.aliases", "devices.names", "devices.entities",
        "devices.streaming", "devices.intervals",
    ]

    init(_ configuration: BridgeConfiguration) {
        state = Mutex(
            State(
                autoConnect: configuration.autoConnect, aliases: configuration.aliases,
                deviceOptions: configuration.deviceOptions, settingsInEffect: configuration.settingsInEffect))
    }

    var autoConnect: AutoConnectPolicy { state.withLock { $0.autoConnect } }
    var settingsInEffect: JSONValue? { state.withLock { $0.settingsInEffect } }
    /// Upper-case address with colons → alias.
    var aliases: [String: String] { state.withLock { $0.aliases } }
    /// Upper-case address with colons → what was chosen for the device.
    var deviceOptions: [String: DeviceOptions] { state.withLock { $0.deviceOptions } }

    func alias(of address: String) -> String? { state.withLock { $0.aliases[address.uppercased()] } }

    func options(of address: String) -> DeviceOptions {
        state.withLock { $0.deviceOptions[address.uppercased()] } ?? .standard
    }

    /// Takes what can change at run time from `configuration`.
    func apply(_ configuration: BridgeConfiguration) {
        state.withLock {
            $0.autoConnect = configuration.autoConnect
            $0.aliases = configuration.aliases
            $0.deviceOptions = configuration.deviceOptions
            $0.settingsInEffect = configuration.settingsInEffect
        }
    }
}
