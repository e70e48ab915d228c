/// Timing facts and defaults of the Activ5 (activ5.md §6, §9), in seconds unless the name says otherwise.
public enum Activ5Timing: Sendable {
    /// The device switches off after 7 minutes in stop mode (READMEs of iOS, Web and Android).
    public static let idlePowerOffSeconds = 420.0
    /// Evergreen interval of iOS and Web: `STOP!` every 60 s while not streaming. Android's 5 min also fits
    /// under the 7 min power-off, but 60 s leaves room for a lost write.
    public static let keepAliveIntervalSeconds = 60.0
    /// Legacy `IS` frames arrive every 100 ms (Android README, Web app README).
    public static let legacyForcePeriodSeconds = 0.1
    /// Sample period a simulated new-protocol device starts with; unconfirmed, chosen to match the legacy
    /// 10 Hz (activ5.md §5.4).
    public static let defaultSamplePeriodMilliseconds: Int16 = 100
    /// IMU period a simulated device uses: 25 Hz as in the 2019-09 logs (activ5.md §9, derived).
    public static let imuPeriodSeconds = 0.04
    /// Seconds per IMU timestamp tick: 30.5 µs / 2 (activ5.md §5.2, cross-checked against recorded logs).
    public static let secondsPerTick = 30.5e-6 / 2
}
