/// The state of a simulated belt and how it answers writes (belt.md §6). Pure: the simulator owns the
/// timing, the link and the sending of what `apply` returns.
public struct BeltState: Sendable, Equatable {
    /// Lowest default intensity the belt keeps; lower requests are raised to it (belt.md §8).
    public static let minimumDefaultIntensity: UInt8 = 5
    /// First firmware that knows the orientation-period parameter 0x0F.
    public static let orientationPeriodFirmware: UInt16 = 52
    /// Factory heading offset, 45° (belt.md §3.4).
    public static let factoryHeadingOffset: UInt16 = 45
    /// Factory orientation notification period, 500 ms (belt.md §5).
    public static let factoryOrientationPeriodMs: UInt16 = 500
    /// Default intensity of a fresh simulated belt; the real factory value is not documented.
    public static let factoryDefaultIntensity: UInt8 = 50
    /// Name of a fresh simulated belt; clients match its `naviguertel` prefix.
    public static let factoryName = "naviGuertel"

    /// Current mode.
    public var mode: BeltMode
    /// Default vibration intensity, 5–100.
    public var defaultIntensity: UInt8
    /// Heading offset in degrees, 0–359.
    public var headingOffset: UInt16
    /// When the belt plays its own inaccurate-orientation signal.
    public var accuracySignal: AccuracySignalState
    /// Orientation notification period in ms (firmware ≥ 52).
    public var orientationPeriodMs: UInt16
    /// Whether bonding is required.
    public var pairingRequired: Bool
    /// BLE name.
    public var name: String
    /// Firmware reported on FE01.
    public var firmware: BeltFirmwareInfo
    /// Battery reported on FE09.
    public var battery: BeltBatteryStatus
    /// Active vibration per channel.
    public var channels: [UInt8: BeltChannelActivity] = [:]
    /// Last system signal started.
    public var lastSystemSignal: SystemSignal?
    /// Last buzzer pattern played.
    public var lastBuzzerPattern: BuzzerTonePattern?
    /// Keep-alive acks received; the simulator may reset it per keep-alive period.
    public var keepAliveAcks = 0

    /// Creates a belt in factory state.
    public init(
        mode: BeltMode = .wait, defaultIntensity: UInt8 = BeltState.factoryDefaultIntensity,
        headingOffset: UInt16 = BeltState.factoryHeadingOffset, accuracySignal: AccuracySignalState = .default,
        orientationPeriodMs: UInt16 = BeltState.factoryOrientationPeriodMs, pairingRequired: Bool = true,
        name: String = BeltState.factoryName, firmware: BeltFirmwareInfo = BeltFirmwareInfo(version: 52),
        battery: BeltBatteryStatus = BeltBatteryStatus(powerStatus: .battery, levelPercent: 80, timeSeconds: 36_000)
    ) {
        self.mode = mode
        self.defaultIntensity = defaultIntensity
        self.headingOffset = headingOffset
        self.accuracySignal = accuracySignal
        self.orientationPeriodMs = orientationPeriodMs
        self.pairingRequired = pairingRequired
        self.name = name
        self.firmware = firmware
        self.battery = battery
    }

    /// The periodic keep-alive notification.
    public var keepAlive: BeltNotification { .keepAlive(mode: mode) }

    /// Applies a write and returns what the belt notifies in reply, in order (FE06 unless stated).
    public mutating func apply(_ request: BeltRequest) -> [BeltNotification] {
        switch request {
        case .keepAliveAck:
            keepAliveAcks += 1
            return []
        case .requestMode: return [.parameter(.mode(mode))]
        case .requestDefaultIntensity: return [.parameter(.defaultIntensity(defaultIntensity))]
        case .requestHeadingOffset: return [.parameter(.headingOffset(headingOffset))]
        case .requestName: return [.parameter(.name(name))]
        case .changeMode(let newMode):
            mode = newMode
            return [.parameter(.mode(mode))]
        case .changeDefaultIntensity(let intensity, _):
            defaultIntensity = max(Self.minimumDefaultIntensity, intensity)
            return [.parameter(.defaultIntensity(defaultIntensity))]
        case .changeHeadingOffset(let degrees):
            // Ack unconfirmed (belt.md §9.10); answered like the other basic writes.
            headingOffset = degrees
            return [.parameter(.headingOffset(headingOffset))]
        case .rename(let suffix):
            // Assumed prefix + suffix (unconfirmed), which keeps the belt matching the name filter.
            name = Self.factoryName + suffix
            return []
        case .requestAdvancedParameter(let id): return advancedParameter(id: id).map { [.parameter($0)] } ?? []
        case .setHeadingOffset(let degrees, _):
            headingOffset = degrees
            return [.parameter(.advancedHeadingOffset(headingOffset))]
        case .setAccuracySignal(let state, _):
            accuracySignal = state
            return [.parameter(.accuracySignal(accuracySignal))]
        case .setOrientationPeriod(let milliseconds, _):
            guard firmware.version >= Self.orientationPeriodFirmware else { return [] }
            orientationPeriodMs = milliseconds
            return [.parameter(.orientationPeriod(milliseconds: orientationPeriodMs))]
        case .setPairingRequirement(let required, _):
            pairingRequired = required
            return [.parameter(.pairingRequirement(pairingRequired))]
        case .setOtherAdvancedParameter:
            return []
        case .reset(let parameters, let bluetooth, _):
            resetToFactory(parameters: parameters, bluetooth: bluetooth)
            return []
        case .vibrate(let configuration):
            play(.pattern(configuration), on: configuration.channel, clearingOthers: configuration.clearOthers)
            return []
        case .pulse(let configuration):
            play(.pulse(configuration), on: configuration.channel, clearingOthers: configuration.clearOthers)
            return []
        case .stop(let channel):
            if let channel { channels[channel] = nil } else { channels.removeAll() }
            return []
        case .systemSignal(let signal):
            lastSystemSignal = signal
            return []
        case .buzzer(let pattern):
            lastBuzzerPattern = pattern
            return []
        case .developerCommand:
            return []
        }
    }

    /// The value of advanced parameter `id`, or nil for ids the simulator does not hold.
    private func advancedParameter(id: UInt8) -> BeltParameterValue? {
        switch BeltAdvancedParameter(rawValue: id) {
        case .defaultIntensity: .advancedDefaultIntensity(defaultIntensity)
        case .headingOffset: .advancedHeadingOffset(headingOffset)
        case .accuracySignal: .accuracySignal(accuracySignal)
        case .orientationPeriod:
            firmware.version >= Self.orientationPeriodFirmware
                ? .orientationPeriod(milliseconds: orientationPeriodMs) : nil
        case .pairingRequirement: .pairingRequirement(pairingRequired)
        case .buzzerActive, .firmwarePatch, nil: nil
        }
    }

    private mutating func play(_ activity: BeltChannelActivity, on channel: UInt8, clearingOthers: Bool) {
        if clearingOthers { channels.removeAll() }
        channels[channel] = activity
    }

    private mutating func resetToFactory(parameters: Bool, bluetooth: Bool) {
        let factory = BeltState()
        if parameters {
            defaultIntensity = factory.defaultIntensity
            headingOffset = factory.headingOffset
            accuracySignal = factory.accuracySignal
            orientationPeriodMs = factory.orientationPeriodMs
        }
        if bluetooth {
            name = factory.name
            pairingRequired = factory.pairingRequired
        }
    }
}
