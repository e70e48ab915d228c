/// Exponentially weighted smoothing of RSSI samples, as Home Assistant's habluetooth does:
/// each new sample counts for `weight` (0.3 by default) and the history for the rest.
///
/// Raw advertisement RSSI jumps by several dB from one packet to the next; comparing raw values
/// across gateways would make ownership flap. The running value is kept unrounded so rounding
/// errors do not pile up; readers get whole dBm.
public struct SignalSmoother: Hashable, Sendable {
    /// The weight habluetooth gives a new sample.
    public static let standardWeight = 0.3

    /// Weight of a new sample, in 0...1 (1 disables smoothing).
    public let weight: Double
    private var running: Double?

    /// Creates a smoother; a weight outside 0...1 is clamped into it.
    public init(weight: Double = SignalSmoother.standardWeight) {
        self.weight = weight.isNaN ? SignalSmoother.standardWeight : min(max(weight, 0), 1)
    }

    /// The smoothed RSSI in whole dBm, or nil before the first sample (or after `reset()`).
    public var value: Int? {
        running.map { Int($0.rounded()) }
    }

    /// Adds one RSSI sample in dBm and returns the new smoothed value; the first sample after
    /// creation or `reset()` is taken as is.
    @discardableResult
    public mutating func add(_ rssi: Int) -> Int {
        let sample = Double(rssi)
        if let previous = running {
            running = previous + weight * (sample - previous)
        } else {
            running = sample
        }
        return value ?? rssi
    }

    /// Forgets the history, for when the device has not been heard for long enough that the old
    /// value would mislead.
    public mutating func reset() {
        running = nil
    }
}
