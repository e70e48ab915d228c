import MQTT
import Peripherals

/// What the daemon needs to run.
public struct BridgeConfiguration: Sendable {
    /// Broker connection (URL, credentials, TLS, protocol version).
    public var mqtt: MQTTConfiguration
    /// The BlueZ adapters the bridge is a central on, e.g. `["hci0"]`: in this order of preference when
    /// their signals tie. Never empty.
    public var adapters: [String]
    /// Connections each adapter holds at most (Home Assistant's default for a BlueZ adapter is 5 too;
    /// real controllers hold about 5 to 7).
    public var adapterSlots = 5
    /// Whether notifications come through AcquireNotify sockets where BlueZ offers them (and the bus can
    /// pass them); false keeps every subscription on StartNotify.
    public var acquireNotify = true
    /// How long one GATT read, write or notification set-up may take before it fails (and frees the device's turn
    /// for the next): ATT allows 30 s, a healthy link answers within a few connection intervals.
    public var gattOperationTimeout = BridgeConfiguration.defaultGattOperationTimeout
    public static let defaultGattOperationTimeout = Duration.seconds(5)
    /// How many times the default `gattOperationTimeout` this one is, at least 1. A link slow enough to need longer
    /// GATT operations is slow at everything else: a connection's set-up and a device's answer to a command (a
    /// family's vendor timings, e.g. the belt's 1 s) wait this many times their own time too.
    public var slowLinkFactor: Double {
        max(1, gattOperationTimeout / BridgeConfiguration.defaultGattOperationTimeout)
    }
    /// Names this gateway in `gatt2mqtt/<gateway>/…`.
    public var gateway: String
    /// Put before every topic, so that two fleets can share a broker; empty for none.
    public var baseTopic = ""
    /// Each family's own section (`a5`, `cpr`, `grip`), declared in the family's folder.
    public var families = FamilySettingsStore()
    /// The families declared as data, served beside the written ones (`devices.declarations`, and those shipped).
    public var declarations: [DeviceDeclaration] = []
    /// Set for a gateway in a fleet: it connects only the devices the fleet's rules give it.
    public var fleet: FleetOptions?
    /// What was chosen for single devices (`devices.names`, `devices.entities`, `devices.streaming`), by upper-case
    /// address.
    public var deviceOptions: [String: DeviceOptions] = [:]
    /// Which devices connect without a `connect` request: by default only adopted ones (`Adoptions`).
    public var autoConnect = AutoConnectPolicy.adopted([])
    /// Where the gateway keeps what outlives it (the adopted devices); nil keeps them in memory only (and on the
    /// broker, retained).
    public var stateDirectory: String?
    /// How long the broker keeps the gateway's session (and the QoS 1 commands for it) while the
    /// gateway is away (MQTT 5; with 3.1.1 the session persists until the gateway returns).
    public var sessionExpirySeconds: UInt32 = 3600
    /// How often `gatt2mqtt/<gateway>/health` is published.
    public var healthInterval: Duration = .seconds(60)
    /// Home Assistant discovery: on or off, its topic prefix, whether fast streams come enabled.
    public var homeAssistant = HomeAssistantOptions()
    /// The live page's address (`--http`), where Home Assistant's device pages link to (`configuration_url`); nil
    /// without the page, or when no address is known to reach it (`HTTPOptions.linkURL`).
    public var livePageURL: String?
    /// A file whose modification time says the gateway is alive: touched every 15 s while the bus answers, as the
    /// systemd watchdog is pinged (a container's HEALTHCHECK reads it). None by default.
    public var healthFile: String?
    /// How often the health file is touched. Not a setting (a container's HEALTHCHECK expects 15 s); a test
    /// shortens it to see rounds in milliseconds.
    var healthFileInterval: Duration = .seconds(15)
    /// Lines of one level `gatt2mqtt/<gateway>/log` takes at most per period (`LogTopic`). Not a setting (the journal's
    /// warnings have a fixed rule too); a test makes it small to see a flood limited.
    var logTopicRate = (burst: 20, period: Duration.seconds(60))
    /// How long after the gateway's start `request/restart` is refused (`too_soon`): a client (or a retained request
    /// some broker still delivers) that restarts the gateway whenever it comes online restarts it at most once per
    /// this, and the gateway is online in between. Two minutes: longer than a start takes (BlueZ, the broker, the
    /// devices reconnecting), short enough for an administrator who really means it.
    public var restartHoldOff: Duration = .seconds(120)
    /// Whether `options` and `restart` are taken from the broker (`PrivilegedRequests`): by default only when the
    /// gateway logs in to it.
    public var privilegedRequests = PrivilegedRequests.auto
    /// Commands accepted per device: a burst, then a steady rate per second.
    public var commandRate = (perSecond: 20.0, burst: 40.0)
    /// Aliases replacing the address as a device's `<id>` in topics: upper-case address with colons
    /// (`AA:BB:CC:DD:EE:FF`) → alias (lower-case letters, digits, `-`, `_`), checked when loaded.
    public var aliases: [String: String] = [:]
    /// Where an MQTT 5 response topic is taken besides the gateway's own reply topics (`ReplySpace`): filters
    /// as written, without the base topic.
    public var replyTopics = ReplySpace.defaultFilters
    /// Largest command payload accepted.
    public var payloadSizeLimit = CommandPayload.defaultSizeLimit
    /// Every setting in effect as the daemon read them, in the file's keys, secrets as `set`/`unset`: the retained
    /// `info` carries it. Nil where nobody described them (a gateway under test without it).
    public var settingsInEffect: JSONValue?

    public init(mqtt: MQTTConfiguration, adapters: [String], gateway: String) {
        precondition(!adapters.isEmpty, "a bridge needs an adapter")
        self.mqtt = mqtt
        self.adapters = adapters
        self.gateway = gateway
    }
}
