import Peripherals

/// The `a5:` section of the configuration.
extension Activ5Options: FamilySettings {
    public static var family: DeviceFamily { .a5 }

    public static let keys: [FamilySettingKey] = [
        .init("squeeze_newtons", .number, help: "Force above which a squeeze starts, in newtons (default 20)."),
        .init("release_newtons", .number, help: "Force below which a squeeze ends, in newtons (default 5)."),
        .init("double_squeeze_s", .number, help: "Longest pause within a double squeeze, in seconds (default 5)."),
        .init(keepAliveSetting, .number, help: "Keep-alive interval while evergreen is on, in seconds (default 60)."),
        .init("reconnect", .text, help: "Reconnect after a loss: auto or manual (default auto)."),
        .init(batterySetting, .number, help: "Battery read interval while connected, in seconds (default 60)."),
    ]

    /// The intervals one device may have its own of (`devices.intervals`), which the profile paces its work by.
    static let keepAliveSetting = "keepalive_s"
    static let batterySetting = "battery_s"
    public static let perDeviceIntervals = [keepAliveSetting, batterySetting]

    public init(from values: some FamilySettingValues) throws(FamilySettingError) {
        self.init()
        let squeeze = try values.number("squeeze_newtons") ?? self.squeeze.pressedNewtons
        let release = try values.number("release_newtons") ?? self.squeeze.releasedNewtons
        guard release >= 0 else {
            throw FamilySettingError(
                "release_newtons", "must be a number of newtons, 0 or more, not \(EffectiveSetting.number(release))")
        }
        if squeeze <= release {
            if values.isSet("squeeze_newtons") {
                throw FamilySettingError(
                    "squeeze_newtons",
                    "must be a number greater than \(values.name("release_newtons")) (\(EffectiveSetting.number(release)))"
                )
            }
            throw FamilySettingError(
                "release_newtons",
                "must be a number less than \(values.name("squeeze_newtons")) (\(EffectiveSetting.number(squeeze)))")
        }
        let window = try values.number("double_squeeze_s") ?? self.squeeze.windowSeconds
        guard window > 0, window <= 60 else {
            throw FamilySettingError(
                "double_squeeze_s",
                "must be a number of seconds above 0, at most 60, not \(EffectiveSetting.number(window))")
        }
        self.squeeze = .init(pressedNewtons: squeeze, releasedNewtons: release, windowSeconds: window)
        if let keepAlive = try values.interval(Self.keepAliveSetting) { keepAliveInterval = keepAlive }
        if let battery = try values.interval(Self.batterySetting) { batteryInterval = battery }
        switch values.text("reconnect") {
        case nil: break
        case "auto": reconnect = true
        case "manual": reconnect = false
        case let other?: throw FamilySettingError("reconnect", "must be auto or manual, not '\(other)'")
        }
    }

    public var effective: [EffectiveSetting] {
        [
            .init("squeeze_newtons", .number(squeeze.pressedNewtons)),
            .init("release_newtons", .number(squeeze.releasedNewtons)),
            .init("double_squeeze_s", .number(squeeze.windowSeconds)),
            .init(Self.keepAliveSetting, .number(EffectiveSetting.seconds(keepAliveInterval))),
            .init("reconnect", .word(reconnect ? "auto" : "manual")),
            .init(Self.batterySetting, .number(EffectiveSetting.seconds(batteryInterval))),
        ]
    }
}

extension BridgeConfiguration {
    /// The Activ5 family's settings.
    public var activ5: Activ5Options {
        get { families[Activ5Options.self] }
        set { families[Activ5Options.self] = newValue }
    }
}
