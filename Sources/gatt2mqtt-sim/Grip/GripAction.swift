import Peripherals

/// Pauses of the grip's canned sequences. A human's half press, full press and release take a few
/// hundred milliseconds; a dial turned fast gives events a few tens of milliseconds apart (the SDK's
/// troubleshooting page knows of grips crashing on exactly that).
enum GripTiming {
    /// Between the steps of a shutter press (half → full → release).
    static let shutterStep: Duration = .milliseconds(150)
    /// Between the steps of `dial <n>`.
    static let dialStep: Duration = .milliseconds(50)
    /// Between the events of `dial_burst`.
    static let dialBurstStep: Duration = .milliseconds(15)
    /// How many events a `dial_burst` has.
    static let dialBurstCount = 8
    /// How long the zoom lever is held in `hold_left` / `hold_right` before it springs back.
    static let zoomHold: Duration = .milliseconds(500)
    /// A flick of the zoom lever, until it is back at rest.
    static let zoomFlick: Duration = .milliseconds(100)
    /// The most steps `dial <n>` accepts.
    static let maximumDialSteps = 100
}

/// Something the user does with the grip: one SDK event, or a plausible sequence of them
/// (cpr-band-and-grip.md §B.5, "Simulator guidance").
enum GripAction: Sendable, Equatable {
    /// One event.
    case event(GripEvent)
    /// Half press, full press, release.
    case shutter
    /// `steps` dial events in a row: clockwise for positive, counter-clockwise for negative.
    case dial(steps: Int)
    /// Several clockwise dial events in quick succession.
    case dialBurst
    /// Zoom lever flicked to one side, then back at rest.
    case zoomFlick(left: Bool)
    /// Zoom lever held to one side, then back at rest.
    case zoomHold(left: Bool)

    /// Short names for single events, besides the SDK names (`shutterButtonHalfDown`, …).
    static let eventAliases: [String: GripEvent] = [
        "half_press": .shutterButtonHalfDown, "full_press": .shutterButtonDown, "press": .shutterButtonDown,
        "release": .shutterButtonReleased, "dial_cw": .dialButtonCW, "dial_ccw": .dialButtonCCW,
        "dial_press": .dialButtonPress, "dial_long_press": .dialButtonLongPress, "fn_press": .fnButtonPress,
        "fn_long_press": .fnButtonLongPress, "zoom_hold_left": .zoomLeverHoldLeft,
        "zoom_hold_right": .zoomLeverHoldRight, "zoom_left": .zoomLeverLeft, "zoom_right": .zoomLeverRight,
        "zoom_neutral": .zoomLeverNeutral,
    ]

    /// Names of the sequences.
    static let sequenceNames: [String: GripAction] = [
        "shutter": .shutter, "dial_burst": .dialBurst, "flick_left": .zoomFlick(left: true),
        "flick_right": .zoomFlick(left: false), "hold_left": .zoomHold(left: true),
        "hold_right": .zoomHold(left: false),
    ]

    /// An event by its SDK name (any case) or alias; nil if there is none.
    static func event(named name: String) -> GripEvent? {
        let lowered = name.lowercased()
        return GripEvent.allCases.first { $0.rawValue.lowercased() == lowered } ?? eventAliases[lowered]
    }

    /// A sequence by name; nil if there is none.
    static func sequence(named name: String) -> GripAction? {
        sequenceNames[name.lowercased()]
    }

    /// An event or a sequence by name (what `--script` accepts).
    init?(name: String) {
        if let event = Self.event(named: name) {
            self = .event(event)
        } else if let sequence = Self.sequence(named: name) {
            self = sequence
        } else {
            return nil
        }
    }

    /// The events to send, each with the pause that follows it.
    var steps: [(event: GripEvent, pause: Duration)] {
        switch self {
        case .event(let event):
            [(event, .zero)]
        case .shutter:
            [
                (.shutterButtonHalfDown, GripTiming.shutterStep), (.shutterButtonDown, GripTiming.shutterStep),
                (.shutterButtonReleased, .zero),
            ]
        case .dial(let steps):
            Array(repeating: (steps < 0 ? .dialButtonCCW : .dialButtonCW, GripTiming.dialStep), count: abs(steps))
        case .dialBurst:
            Array(repeating: (.dialButtonCW, GripTiming.dialBurstStep), count: GripTiming.dialBurstCount)
        case .zoomFlick(let left):
            [(left ? .zoomLeverLeft : .zoomLeverRight, GripTiming.zoomFlick), (.zoomLeverNeutral, .zero)]
        case .zoomHold(let left):
            [(left ? .zoomLeverHoldLeft : .zoomLeverHoldRight, GripTiming.zoomHold), (.zoomLeverNeutral, .zero)]
        }
    }

    /// Every name an event or sequence may be given, for help texts and errors.
    static var knownNames: String {
        let events = GripEvent.allCases.map(\.rawValue) + eventAliases.keys.sorted()
        return
            "events: \(events.joined(separator: ", ")); sequences: \(sequenceNames.keys.sorted().joined(separator: ", "))"
    }
}
