import Locks

/// The settings a gateway changes at run time (`request/options`), read by every feature that follows them instead of
/// the configuration it started with: which devices connect by themselves, the devices' ids (`devices.aliases`, which
/// `request/rename` changes) and the settings in effect its `info` shows. Everything else stays as started until a
/// restart.
final class LiveSettings: Sendable {
    private struct State {
        var autoConnect: AutoConnectPolicy
        var aliases: [String: String]
        var settingsInEffect: JSONValue?
    }

    private let state: Mutex<State>

    /// The key paths a change applies at once; any other needs a restart.
    static let appliedAtRunTime: Set<String> = ["devices.auto_connect", "devices.allow", "devices.aliases"]

    init(_ configuration: BridgeConfiguration) {
        state = Mutex(
            State(
                autoConnect: configuration.autoConnect, aliases: configuration.aliases,
                settingsInEffect: configuration.settingsInEffect))
    }

    var autoConnect: AutoConnectPolicy { state.withLock { $0.autoConnect } }
    var settingsInEffect: JSONValue? { state.withLock { $0.settingsInEffect } }
    /// Upper-case address with colons → alias.
    var aliases: [String: String] { state.withLock { $0.aliases } }

    func alias(of address: String) -> String? { state.withLock { $0.aliases[address.uppercased()] } }

    /// Takes what can change at run time from `configuration`.
    func apply(_ configuration: BridgeConfiguration) {
        state.withLock {
            $0.autoConnect = configuration.autoConnect
            $0.aliases = configuration.aliases
            $0.settingsInEffect = configuration.settingsInEffect
        }
    }
}
