import Peripherals

/// The `cpr:` section of the configuration.
extension CPRBandOptions: FamilySettings {
    public static var family: DeviceFamily { .cpr }

    static let angleSampleRange = 1...1000
    static let referencePowerRange = -127.0...20.0
    static let exponentRange = 1.0...10.0

    public static let keys: [FamilySettingKey] = [
        .init("angle_samples", .integer, help: "Wrist-angle samples averaged per published angle (default 5)."),
        .init("range_mm", .integers, help: "Depth range in mm until a range command sets one (default 50,60)."),
        .init("rate_window_s", .number, help: "Rolling window of the compression rate, in seconds (default 10)."),
        .init(batterySetting, .number, help: "Battery read interval while connected, in seconds (default 60)."),
        .init(signalSetting, .number, help: "RSSI and distance interval while connected, in seconds (default 5)."),
        .init("distance.reference_dbm", .number, help: "RSSI at 1 m for the distance estimate, in dBm (default -59)."),
        .init(
            "distance.exponent", .number,
            help: "Path-loss exponent of the distance estimate, 1 to 10 (default 2, free space)."),
    ]

    /// The intervals one device may have its own of (`devices.intervals`), which the profile paces its work by.
    static let batterySetting = "battery_s"
    static let signalSetting = "signal_s"
    public static let perDeviceIntervals = [batterySetting, signalSetting]

    public init(from values: some FamilySettingValues) throws(FamilySettingError) {
        self.init()
        if let samples = values.integer("angle_samples") {
            guard Self.angleSampleRange.contains(samples) else {
                throw FamilySettingError("angle_samples", "must be a whole number from 1 to 1000, not \(samples)")
            }
            angleSamples = samples
        }
        if let bounds = values.integers("range_mm") {
            let limits = "[min, max] in millimetres, min 35…55 and max from min to 69"
            guard bounds.count == 2 else { throw FamilySettingError("range_mm", "must be \(limits), not \(bounds)") }
            do {
                targetRange = try CPRBandDepthRange(minMillimetres: bounds[0], maxMillimetres: bounds[1])
            } catch {
                throw FamilySettingError("range_mm", "must be \(limits), not \(bounds)")
            }
        }
        if let window = try values.number("rate_window_s") {
            guard window > 0, window <= 3600 else {
                throw FamilySettingError(
                    "rate_window_s",
                    "must be a number of seconds above 0, at most 3600, not \(EffectiveSetting.number(window))")
            }
            rateWindowSeconds = window
        }
        if let battery = try values.interval(Self.batterySetting) { batteryInterval = battery }
        if let signal = try values.interval(Self.signalSetting) { signalInterval = signal }
        if let reference = try values.number("distance.reference_dbm") {
            guard Self.referencePowerRange.contains(reference) else {
                throw FamilySettingError(
                    "distance.reference_dbm",
                    "must be a number of dBm from -127 to 20, not \(EffectiveSetting.number(reference))")
            }
            distance.referencePowerDBm = reference
        }
        if let exponent = try values.number("distance.exponent") {
            // Path loss falls off at least as fast as in a waveguide (about 1.6) and never as slowly as a tiny exponent
            // says: 1e-320 was taken, and made every distance infinite.
            guard Self.exponentRange.contains(exponent) else {
                throw FamilySettingError(
                    "distance.exponent",
                    "must be a number from 1 to 10 (2 is free space, 2.7 to 4 indoors), not "
                        + EffectiveSetting.number(exponent))
            }
            distance.exponent = exponent
        }
    }

    public var effective: [EffectiveSetting] {
        var settings: [EffectiveSetting] = [
            .init("angle_samples", .number(Double(angleSamples))),
            .init("range_mm", .integers([Int(targetRange.minMillimetres), Int(targetRange.maxMillimetres)])),
            .init("rate_window_s", .number(rateWindowSeconds)),
            .init(Self.batterySetting, .number(EffectiveSetting.seconds(batteryInterval))),
            .init(Self.signalSetting, .number(EffectiveSetting.seconds(signalInterval))),
        ]
        if let reference = distance.referencePowerDBm {
            settings.append(.init("distance.reference_dbm", .number(reference)))
        }
        settings.append(.init("distance.exponent", .number(distance.exponent)))
        return settings
    }
}

extension BridgeConfiguration {
    /// The CPR-Band family's settings.
    public var cprBand: CPRBandOptions {
        get { families[CPRBandOptions.self] }
        set { families[CPRBandOptions.self] = newValue }
    }
}
