/// The join window (`permit_join`): while it is open, a device of a known family that the gateway sees is adopted.
/// Closed by default, and it closes by itself: a window cannot be left open for ever by mistake, nor adopt without end.
struct JoinWindow: Sendable, Equatable {
    /// The longest a window may stay open, in seconds (Zigbee2MQTT's longest is 254).
    static let longest = 3600
    /// What Home Assistant's switch and the page open it for.
    static let usual = 254
    /// The most devices one window adopts, then it closes: a window open in a crowded room (or one full of fakes) takes
    /// at most an eighth of the gateway's places. A class of 30 with a band and a heart-rate sensor each fits in one.
    static let adoptionLimit = AdoptionList.limit / 8

    private(set) var closes: ContinuousClock.Instant?
    /// Devices this window adopted.
    private(set) var adopted = 0
    /// From the opening until the devices in range then have been considered (`inRangeConsidered`): a gateway slow to
    /// get to them (a machine busy for longer than a short window) must not find the window closed by the clock
    /// before it looked at the devices it was opened for.
    private(set) var awaitsDevicesInRange = false

    mutating func open(for seconds: Int, at now: ContinuousClock.Instant) {
        closes = seconds > 0 ? now + .seconds(min(seconds, Self.longest)) : nil
        adopted = 0
        awaitsDevicesInRange = closes != nil
    }

    /// The devices in range at the opening have been considered: from now on the clock alone closes the window.
    mutating func inRangeConsidered() { awaitsDevicesInRange = false }

    /// Counts a device the window adopts; false when it has adopted `adoptionLimit` already, and it closes then.
    mutating func admitAdoption() -> Bool {
        guard adopted < Self.adoptionLimit else {
            close()
            return false
        }
        adopted += 1
        return true
    }

    mutating func close() {
        closes = nil
        awaitsDevicesInRange = false
    }

    func isOpen(at now: ContinuousClock.Instant) -> Bool {
        guard let closes else { return false }
        return awaitsDevicesInRange || now < closes
    }

    /// Whole seconds left, rounded up; 0 when closed.
    func remainingSeconds(at now: ContinuousClock.Instant) -> Int {
        guard let closes, now < closes else { return 0 }
        let left = closes - now
        let (seconds, attoseconds) = left.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }
}
