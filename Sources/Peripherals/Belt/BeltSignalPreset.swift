/// The vendor libraries' signal recipes (belt.md §3.2.5, Android column), as channel configurations.
/// The firmware knows nothing of them; they are conventions worth reusing from MQTT by name.
public enum BeltSignalPreset: BeltNamedValue {
    /// Continuous vibration toward a direction (Android's navigation signal).
    case navigation
    /// Same recipe as `navigation`, under its pattern name.
    case continuous
    /// One continuous pulse toward a direction.
    case directionNotification
    /// Repeated short pulses toward the destination.
    case approachingDestination
    /// Repeated long pulses while a turn is under way.
    case turn
    /// Next waypoint far: long pulse every 3 s.
    case waypointLong
    /// Next waypoint at medium distance: long pulse every 1.5 s. Also called `waypoint`.
    case waypointMedium
    /// Next waypoint close: long pulse every 1 s.
    case waypointShort
    /// Waypoint area reached: long pulse every 0.75 s.
    case areaReached
    /// Destination reached, played once, exclusive.
    case destinationReached
    /// Destination reached, repeated.
    case destinationReachedRepeated
    /// Operation warning: two warning waves at 25 %, exclusive.
    case warning
    /// Critical warning: three long pulses on front, right, back and left, exclusive.
    case criticalWarning

    /// Channel of repeated (navigation) signals, Android's `NAVIGATION_SIGNAL_CHANNEL`.
    public static let navigationChannel = 2
    /// Channel of temporary notifications and warnings. In app mode the belt's accuracy signal may take
    /// channel 0 over (belt.md §8); pass another channel or turn that signal off if that matters.
    public static let temporaryChannel = 0

    /// Lower-case name used in MQTT payloads.
    public var name: String {
        switch self {
        case .navigation: "navigation"
        case .continuous: "continuous"
        case .directionNotification: "direction_notification"
        case .approachingDestination: "approaching_destination"
        case .turn: "turn"
        case .waypointLong: "waypoint_long"
        case .waypointMedium: "waypoint_medium"
        case .waypointShort: "waypoint_short"
        case .areaReached: "area_reached"
        case .destinationReached: "destination_reached"
        case .destinationReachedRepeated: "destination_reached_repeated"
        case .warning: "warning"
        case .criticalWarning: "critical_warning"
        }
    }

    /// Looks a preset up by name or by one of the aliases `waypoint`, `turn_ongoing`, `operation_warning`,
    /// `destination_reached_single`, ignoring case.
    public init?(name: String) {
        let aliases: [String: BeltSignalPreset] = [
            "waypoint": .waypointMedium, "turn_ongoing": .turn, "operation_warning": .warning,
            "destination_reached_single": .destinationReached,
        ]
        let wanted = name.lowercased()
        if let preset = aliases[wanted] ?? Self.allCases.first(where: { $0.name == wanted }) {
            self = preset
        } else {
            return nil
        }
    }

    /// Whether the preset points at the given direction; the others use fixed motors.
    public var isDirectional: Bool {
        switch self {
        case .destinationReached, .destinationReachedRepeated, .warning, .criticalWarning: false
        default: true
        }
    }

    /// Whether the signal repeats until stopped.
    public var repeatsForever: Bool { recipe.iterations == nil }

    /// The channel the preset uses unless told otherwise: 2 for repeated signals, 0 for temporary ones.
    public var defaultChannel: Int { repeatsForever ? Self.navigationChannel : Self.temporaryChannel }

    /// The channel configuration for this preset.
    /// - Parameters:
    ///   - direction: degrees for `.angle`/`.bearing`, or a motor index/mask; ignored by fixed-motor presets.
    ///   - orientationType: how `direction` is read; ignored by fixed-motor presets.
    ///   - channel: overrides `defaultChannel`.
    ///   - intensity: 0–100, nil for the preset's own (the belt default, or 25 % for `warning`).
    /// - Throws: `FieldError` if an override or the direction is out of range.
    public func configuration(
        direction: Int = 0, orientationType: OrientationType = .bearing, channel: Int? = nil, intensity: Int? = nil
    ) throws(FieldError) -> ChannelConfiguration {
        let recipe = self.recipe
        return try ChannelConfiguration(
            channel: channel ?? defaultChannel, pattern: recipe.pattern, intensity: intensity ?? recipe.intensity,
            orientationType: recipe.fixedOrientation?.type ?? orientationType,
            orientationValue: recipe.fixedOrientation?.value ?? direction, iterations: recipe.iterations,
            periodMs: recipe.periodMs, exclusive: recipe.exclusive)
    }

    /// One row of the Android column.
    private struct Recipe {
        var pattern: VibrationPattern
        var iterations: Int?
        var periodMs: Int
        var exclusive = false
        var intensity: Int? = nil
        var fixedOrientation: (type: OrientationType, value: Int)? = nil
    }

    private var recipe: Recipe {
        switch self {
        case .navigation, .continuous: Recipe(pattern: .continuous, iterations: nil, periodMs: 500)
        case .directionNotification: Recipe(pattern: .continuous, iterations: 1, periodMs: 1000)
        case .approachingDestination: Recipe(pattern: .singleShort, iterations: nil, periodMs: 500)
        case .turn: Recipe(pattern: .singleLong, iterations: nil, periodMs: 750)
        case .waypointLong: Recipe(pattern: .singleLong, iterations: nil, periodMs: 3000)
        case .waypointMedium: Recipe(pattern: .singleLong, iterations: nil, periodMs: 1500)
        case .waypointShort: Recipe(pattern: .singleLong, iterations: nil, periodMs: 1000)
        case .areaReached: Recipe(pattern: .singleLong, iterations: nil, periodMs: 750)
        case .destinationReached:
            Recipe(
                pattern: .destinationReached, iterations: 1, periodMs: 2500, exclusive: true,
                fixedOrientation: (.motorIndex, 0))
        case .destinationReachedRepeated:
            Recipe(pattern: .destinationReached, iterations: nil, periodMs: 5000, fixedOrientation: (.motorIndex, 0))
        case .warning:
            Recipe(
                pattern: .warning, iterations: 2, periodMs: 500, exclusive: true, intensity: 25,
                fixedOrientation: (.motorIndex, 0))
        case .criticalWarning:
            // Motors 0, 4, 8 and 12: front, right, back, left.
            Recipe(
                pattern: .singleLong, iterations: 3, periodMs: 700, exclusive: true,
                fixedOrientation: (.binaryMask, 0x1111))
        }
    }
}
