import Peripherals

/// Settings of the CPR-Band family.
public struct CPRBandOptions: Sendable {
    /// Wrist-angle samples averaged per published angle (the vendor library's default: 5).
    public var angleSamples = CPRBandAngleMovingAverage.defaultSampleCount
    /// Raw battery byte → percent and volts (the vendor library's table by default).
    public var batteryMapping = CPRBandBatteryMapping.busLibrary
    /// RSSI → distance (cpr-band §A.9 model). The band advertises no calibrated TX power, so a reference
    /// power at 1 m is assumed: −59 dBm, a common figure for a wrist-worn BLE device.
    public var distance = CPRBandDistanceModel(referencePowerDBm: -59, exponent: 2)
    /// The compression depth range statistics count against until a `range` command sets the band's.
    public var targetRange = CPRBandDepthRange.vendorDefault
    /// How often the battery is read while connected (Bus `INTERVAL_READ_BATT`, 60 s).
    public var batteryInterval: Duration = .seconds(60)
    /// How often RSSI and distance are published while connected (Bus `INTERVAL_READ_RSSI`, 5 s).
    public var signalInterval: Duration = .seconds(5)
    /// Rolling window of the compression rate, in seconds.
    public var rateWindowSeconds = CompressionStatistics.defaultWindowSeconds

    public init() {}
}
