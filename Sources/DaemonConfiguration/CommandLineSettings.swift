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
    /// `--auto-connect all|none|allowed`.
    public var autoConnect: String?
    /// `--allow ADDRESS`, repeated.
    public var allow: [String] = []
    /// `--grip-profile FILE`.
    public var gripProfile: String?
    /// `--a5-squeeze-newtons`.
    public var a5SqueezeNewtons: Double?
    /// `--a5-release-newtons`.
    public var a5ReleaseNewtons: Double?
    /// `--a5-double-squeeze-seconds`.
    public var a5DoubleSqueezeSeconds: Double?
    /// `--a5-keepalive-seconds`.
    public var a5KeepaliveSeconds: Double?
    /// `--a5-battery-seconds`.
    public var a5BatterySeconds: Double?
    /// `--cpr-battery-seconds`.
    public var cprBatterySeconds: Double?
    /// `--cpr-signal-seconds`.
    public var cprSignalSeconds: Double?
    /// `--a5-reconnect auto|manual`.
    public var a5Reconnect: String?
    /// `--health-seconds`.
    public var healthSeconds: Double?
    /// `--start-notify`: never AcquireNotify.
    public var startNotify = false
    /// `--fleet`.
    public var fleet = false
    /// `--fleet-refresh-seconds`.
    public var fleetRefreshSeconds: Double?
    /// `--fleet-incarnation-file`.
    public var fleetIncarnationFile: String?
    /// `--http`.
    public var http: String?

    /// Nothing given.
    public init() {}

    var settings: Settings {
        var settings = Settings()
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
        set(.autoConnect, "--auto-connect", autoConnect.map(SettingValue.text))
        set(.allow, "--allow", allow.isEmpty ? nil : .list(allow))
        set(.gripProfile, "--grip-profile", gripProfile.map(SettingValue.text))
        set(.a5SqueezeNewtons, "--a5-squeeze-newtons", a5SqueezeNewtons.map(SettingValue.number))
        set(.a5ReleaseNewtons, "--a5-release-newtons", a5ReleaseNewtons.map(SettingValue.number))
        set(.a5DoubleSqueezeSeconds, "--a5-double-squeeze-seconds", a5DoubleSqueezeSeconds.map(SettingValue.number))
        set(.a5KeepAliveSeconds, "--a5-keepalive-seconds", a5KeepaliveSeconds.map(SettingValue.number))
        set(.a5Reconnect, "--a5-reconnect", a5Reconnect.map(SettingValue.text))
        set(.a5BatterySeconds, "--a5-battery-seconds", a5BatterySeconds.map(SettingValue.number))
        set(.cprBatterySeconds, "--cpr-battery-seconds", cprBatterySeconds.map(SettingValue.number))
        set(.cprSignalSeconds, "--cpr-signal-seconds", cprSignalSeconds.map(SettingValue.number))
        set(.healthInterval, "--health-seconds", healthSeconds.map(SettingValue.number))
        set(.acquireNotify, "--start-notify", startNotify ? .text("false") : nil)
        set(.fleetEnabled, "--fleet", fleet ? .text("true") : nil)
        set(.fleetRefreshSeconds, "--fleet-refresh-seconds", fleetRefreshSeconds.map(SettingValue.number))
        set(.fleetIncarnationFile, "--fleet-incarnation-file", fleetIncarnationFile.map(SettingValue.text))
        set(.httpListen, "--http", http.map(SettingValue.text))
        return settings
    }
}
