/// What was given on the command line; nil (or an empty list) for a flag not given, so that the
/// file's and the environment's values stand.
public struct CommandLineSettings: Sendable, Equatable {
    /// `--config FILE`.
    public var configFile: String?
    /// `--broker mqtt://HOST:PORT`.
    public var broker: String?
    /// `--adapter hci0`, repeated for several adapters.
    public var adapters: [String] = []
    /// `--adapter-slots N`.
    public var adapterSlots: Int?
    /// `--gateway NAME`.
    public var gateway: String?
    /// `--base-topic PREFIX`.
    public var baseTopic: String?
    /// `--mqtt-version 5|3.1.1`.
    public var mqttVersion: String?
    /// `--log-level LEVEL`.
    public var logLevel: String?
    /// `--log-level-mqtt LEVEL|off`.
    public var logLevelMQTT: String?
    /// `--auto-connect all|none|allowed`.
    public var autoConnect: String?
    /// `--allow ADDRESS`, repeated.
    public var allow: [String] = []
    /// `--health-seconds`.
    public var healthSeconds: Double?
    /// `--start-notify`: never AcquireNotify.
    public var startNotify = false
    /// `--fleet`.
    public var fleet = false
    /// `--no-fleet`.
    public var noFleet = false
    /// `--fleet-refresh-seconds`.
    public var fleetRefreshSeconds: Double?
    /// `--fleet-incarnation-file`.
    public var fleetIncarnationFile: String?
    /// `--http`.
    public var http: String?
    /// The families' flags (`--a5-squeeze-newtons 25`, `--cpr-range-mm=40,65`), each followed by its
    /// value, as given: the families declare them (`FamilySettings`), so the executable passes them on
    /// unparsed.
    public var familyFlags: [String] = []

    /// Nothing given.
    public init() {}

    func settings() throws(ConfigurationError) -> Settings {
        var settings = try FamilyFlags.settings(familyFlags)
        func set(_ key: ConfigurationKey, _ flag: String, _ value: SettingValue?) {
            if let value { settings[key] = Setting(value: value, name: flag, source: .commandLine) }
        }
        set(.brokerURL, "--broker", broker.map(SettingValue.text))
        set(.adapters, "--adapter", adapters.isEmpty ? nil : .list(adapters))
        set(.adapterSlots, "--adapter-slots", adapterSlots.map(SettingValue.integer))
        set(.gateway, "--gateway", gateway.map(SettingValue.text))
        set(.baseTopic, "--base-topic", baseTopic.map(SettingValue.text))
        set(.protocolVersion, "--mqtt-version", mqttVersion.map(SettingValue.text))
        set(.logLevel, "--log-level", logLevel.map(SettingValue.text))
        set(.logLevelMQTT, "--log-level-mqtt", logLevelMQTT.map(SettingValue.text))
        set(.autoConnect, "--auto-connect", autoConnect.map(SettingValue.text))
        set(.allow, "--allow", allow.isEmpty ? nil : .list(allow))
        set(.healthInterval, "--health-seconds", healthSeconds.map(SettingValue.number))
        set(.acquireNotify, "--start-notify", startNotify ? .text("false") : nil)
        set(.fleetEnabled, noFleet ? "--no-fleet" : "--fleet", noFleet ? .text("false") : fleet ? .text("true") : nil)
        set(.fleetRefreshSeconds, "--fleet-refresh-seconds", fleetRefreshSeconds.map(SettingValue.number))
        set(.fleetIncarnationFile, "--fleet-incarnation-file", fleetIncarnationFile.map(SettingValue.text))
        set(.httpListen, "--http", http.map(SettingValue.text))
        return settings
    }
}
