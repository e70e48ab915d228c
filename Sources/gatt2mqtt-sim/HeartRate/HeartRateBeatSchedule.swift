import Peripherals

/// What the simulated strap puts in its next Heart Rate Measurement (2A37), and how that changes from one to the
/// next: the current rate, the contact status, the energy expended so far and an RR interval that fits the rate.
/// No I/O and no clock, so that the simulator's timer, its console and a test all drive the same arithmetic.
///
/// Simplifications against a real strap, chosen so that a test can predict every value:
/// - one RR interval per measurement, exactly 60/bpm s, whatever `--interval-ms` is (a real strap sends the beats
///   that ended since its last notification: none, one or several, each a little different);
/// - energy expended grows by 1 kJ per measurement sent, not with the rate or the time.
struct HeartRateBeatSchedule: Sendable, Equatable {
    /// The rates `--bpm` and `bpm <n>` accept: a resting adult's lowest to a sprinter's highest, all in the
    /// uint8 form of the rate field.
    static let acceptedBeatsPerMinute = 30...250
    /// The largest energy expended the uint16 field holds; the specification has the sensor stay there until the
    /// control point resets it.
    static let largestEnergyKilojoules = Int(UInt16.max)
    /// The longest RR interval `rr <ms>` accepts: 63 999 ms is 65 535 in 1/1024 s, the most a uint16 holds.
    static let longestRRMilliseconds = 63_999

    /// Heart rate of the next measurement, within `acceptedBeatsPerMinute`.
    var beatsPerMinute: Int
    /// Whether the strap has a contact sensor at all (off with `--no-contact`: "not supported" in every
    /// measurement, since a strap without the feature cannot report "no contact" either).
    let detectsContact: Bool
    /// Whether the electrodes touch the skin (`contact on|off`); meaningful only when `detectsContact`.
    private(set) var skinContact = true
    /// Whether measurements carry energy expended (off with `--no-energy`).
    let reportsEnergy: Bool
    /// Whether measurements from the timer and `beat` carry an RR interval (off with `--no-rr`).
    let reportsRRIntervals: Bool
    /// Energy expended since the last reset, kJ, 0…`largestEnergyKilojoules`.
    private(set) var energyExpendedKilojoules = 0

    init(beatsPerMinute: Int, detectsContact: Bool = true, reportsEnergy: Bool = true, reportsRRIntervals: Bool = true)
    {
        self.beatsPerMinute = beatsPerMinute
        self.detectsContact = detectsContact
        self.reportsEnergy = reportsEnergy
        self.reportsRRIntervals = reportsRRIntervals
    }

    /// The contact status bits 1–2 of the next measurement carry.
    var contact: HeartRateSensorContact {
        guard detectsContact else { return .notSupported }
        return skinContact ? .detected : .notDetected
    }

    /// The next measurement: the current rate, contact and energy, and `rrIntervals` when given (`rr <ms>,…`,
    /// sent exactly as asked even with `--no-rr`), else one interval of the current rate unless `--no-rr`.
    /// Nothing changes until `measurementSent()`: a measurement nobody was subscribed to did not happen.
    func measurement(rrIntervals: [UInt16]? = nil) -> HeartRateMeasurement {
        let intervals = rrIntervals ?? (reportsRRIntervals ? [Self.rrInterval(beatsPerMinute: beatsPerMinute)] : [])
        return HeartRateMeasurement(
            beatsPerMinute: beatsPerMinute, contact: contact,
            energyExpendedKilojoules: reportsEnergy ? energyExpendedKilojoules : nil, rawRRIntervals: intervals)
    }

    /// A measurement went out: the energy expended grows by 1 kJ, and stays at the uint16 maximum once there.
    mutating func measurementSent() {
        guard reportsEnergy else { return }
        energyExpendedKilojoules = min(energyExpendedKilojoules + 1, Self.largestEnergyKilojoules)
    }

    /// What a write of 0x01 to the control point does: the next measurement reports 0 kJ.
    mutating func resetEnergyExpended() { energyExpendedKilojoules = 0 }

    /// `energy <kJ>`: the next measurement reports this much, clamped to what the field holds.
    mutating func setEnergyExpended(kilojoules: Int) {
        energyExpendedKilojoules = min(max(kilojoules, 0), Self.largestEnergyKilojoules)
    }

    /// `contact on|off`; returns false, changing nothing, for a strap without a contact sensor.
    mutating func setSkinContact(_ touching: Bool) -> Bool {
        guard detectsContact else { return false }
        skinContact = touching
        return true
    }

    /// The time between two beats at `beatsPerMinute`, 60/bpm s, in the RR field's 1/1024 s, rounded to the
    /// nearest (72 bpm: 853.3 → 853). A rate of 0 or less has no beats; it gives the longest interval.
    static func rrInterval(beatsPerMinute: Int) -> UInt16 {
        guard beatsPerMinute > 0 else { return .max }
        let units = (60 * HeartRateMeasurement.rrIntervalUnitsPerSecond / Double(beatsPerMinute)).rounded()
        return UInt16(min(units, Double(UInt16.max)))
    }

    /// An interval given in milliseconds (`rr 800,…`) in 1/1024 s, rounded to the nearest (800 ms: 819.2 →
    /// 819); nil outside 1…`longestRRMilliseconds`.
    static func rrInterval(milliseconds: Int) -> UInt16? {
        guard (1...longestRRMilliseconds).contains(milliseconds) else { return nil }
        return UInt16((Double(milliseconds) * HeartRateMeasurement.rrIntervalUnitsPerSecond / 1000).rounded())
    }
}
