import Peripherals

/// `--events-per-second`: event notifications the benchmark can match by position. The cycle is every
/// SDK event the profile has a byte for, in the SDK's declaration order (`GripEvent.allCases`); the n-th
/// event since the central subscribed (n = 1, 2, …) is `events[(n − 1) mod events.count]`, and the bridge
/// publishes its name on `grip/<id>/event`. With the built-in profile the cycle is all 14 events and the
/// byte is the position plus one:
///
///     01 shutterButtonDown      05 dialButtonCCW         09 fnButtonLongPress     0d zoomLeverRight
///     02 shutterButtonReleased  06 dialButtonPress       0a zoomLeverHoldLeft     0e zoomLeverNeutral
///     03 shutterButtonHalfDown  07 dialButtonLongPress   0b zoomLeverHoldRight
///     04 dialButtonCW           08 fnButtonPress         0c zoomLeverLeft
struct GripEventCycle: Sendable {
    /// The events in cycle order.
    let events: [GripEvent]
    /// Their notifications, encoded once.
    private let values: [[UInt8]]
    private var position = 0

    init(profile: GripProfile) {
        let encodable = GripEvent.allCases.compactMap { event in
            (try? profile.encoded(event: event)).map { (event, $0) }
        }
        events = encodable.map(\.0)
        values = encodable.map(\.1)
    }

    /// The next notification; `restart()` makes the next one the first event again.
    mutating func next() -> [UInt8] {
        defer { position = (position + 1) % values.count }
        return values[position]
    }

    /// Starts the cycle again (a new subscription).
    mutating func restart() { position = 0 }
}
