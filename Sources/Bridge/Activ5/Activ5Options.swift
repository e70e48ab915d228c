import Peripherals

/// Settings of the Activ5 family.
public struct Activ5Options: Sendable {
    /// Double-squeeze thresholds (activ5.md §7 defaults: 20 N pressed, 5 N released, 5 s window).
    public var squeeze = DoubleSqueezeDetector.Thresholds()
    /// How often the evergreen keep-alive is sent while not streaming (the vendors' clients: 60 s).
    public var keepAliveInterval: Duration = .seconds(Activ5Timing.keepAliveIntervalSeconds)
    /// How often the battery level (2A19, new protocol) is read while connected: Bus reads its bands' every
    /// 60 s, and an Activ5 session is as long.
    public var batteryInterval: Duration = .seconds(60)
    /// Reconnect automatically after a loss (`auto`), or leave the device until asked (`manual`).
    public var reconnect = true

    public init() {}
}
