/// A gateway in a fleet (several gateways on one broker that share devices): it connects a device only
/// while the fleet's ownership rules (module `Fleet`, docs/fleet-ownership.md) make it the owner.
public struct FleetOptions: Sendable, Equatable {
    /// When the fleet's rules apply.
    public enum Joining: String, Sendable, Equatable {
        /// Only while another gateway is online on the broker (`fleet.enabled: auto`, the default): a gateway on
        /// its own connects at once, and two gateways never fight over a device.
        case whenOthersOnline
        /// Always (`fleet.enabled: true`): even alone, the gateway waits a lease and the settle period first.
        case always
    }

    public var joining = Joining.whenOthersOnline
    /// How often the gateway republishes its claims and its heartbeat; the rules' other periods follow
    /// from it (lease 3×, settle 1.5×). Every gateway of a fleet must use the same.
    public var refreshInterval: Duration = .seconds(10)
    /// Where the gateway keeps its incarnation, the counter it bumps at every start so that the other
    /// gateways can tell its new claims from its old ones.
    public var incarnationFile = Self.defaultIncarnationFile
    /// Whether `incarnationFile` was set to another path than the default (flag, file or environment).
    public var incarnationFileChosen = false

    public static let defaultIncarnationFile = "/var/lib/gatt2mqtt/fleet-incarnation"

    /// The incarnation file's default place in a state directory (`state_directory`).
    public static func incarnationFile(in stateDirectory: String) -> String { stateDirectory + "/fleet-incarnation" }

    public init() {}
}
