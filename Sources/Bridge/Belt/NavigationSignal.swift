import Peripherals

/// What the caller of `BeltNavigation` must do, in the order given.
public enum NavigationAction: Sendable, Equatable {
    /// Write this command to the belt.
    case send(BeltCommand)
    /// Publish the navigation state (retained, `belt/<id>/navigation`).
    case publishState(BeltNavigation.State)
    /// Publish a one-off event, e.g. `home_button`.
    case publishEvent(String)
    /// A navigation update is held back by the 100 ms rule: call `flush(now:)` after this delay.
    case flushAfter(Duration)
}

extension BeltNavigation {
    /// Event published when Home is pressed for the application (previous mode = new mode).
    public static let homeButtonEvent = "home_button"

    /// The navigation signal: which repeated preset plays toward which direction, on channel 2.
    public struct Signal: Sendable, Equatable {
        /// Degrees, clockwise; wrapped mod 360 when sent. Ignored by fixed-motor presets.
        public var direction: Int
        /// `.bearing` (relative to magnetic North) or `.angle` (relative to the belt front).
        public var orientation: OrientationType
        /// A repeated preset, or nil for no vibration while navigation stays active.
        public var preset: BeltSignalPreset?
        /// 0–100, nil for the preset's own (the belt default). 0 means no vibration, as in FSLib.
        public var intensity: Int?

        public init(
            direction: Int = 0, orientation: OrientationType = .bearing, preset: BeltSignalPreset? = .navigation,
            intensity: Int? = nil
        ) {
            self.direction = direction
            self.orientation = orientation
            self.preset = preset
            self.intensity = intensity
        }

        /// Navigation without vibration.
        public static let silent = Signal(preset: nil)

        /// The command that plays this signal on the navigation channel: a channel configuration, or
        /// `30 02` (stop channel 2) when there is nothing to play.
        /// - Throws: `invalidValue` for a one-shot preset, an orientation other than bearing/angle or an
        ///   intensity outside 0–100.
        func command() throws(CommandError) -> BeltCommand {
            try Self.checkDirectional(orientation, field: "orientation")
            if let intensity, !(0...100).contains(intensity) {
                throw CommandError(.invalidValue, "'intensity' must be between 0 and 100")
            }
            guard let preset, intensity != 0 else { return .stopChannel(BeltNavigation.channel) }
            guard preset.repeatsForever else {
                let repeated = BeltSignalPreset.allCases.filter(\.repeatsForever).map(\.name)
                throw CommandError(
                    .invalidValue,
                    "'signal' \(preset.name) plays once and cannot guide navigation; use one of \(repeated.joined(separator: ", ")) or none"
                )
            }
            return try BeltNavigation.vibrate(
                preset, direction: direction, orientation: orientation, channel: BeltNavigation.channel,
                intensity: intensity)
        }

        static func checkDirectional(_ orientation: OrientationType, field: String) throws(CommandError) {
            guard orientation == .bearing || orientation == .angle else {
                throw CommandError(.invalidValue, "'\(field)' must be 'bearing' or 'angle'")
            }
        }
    }

    /// One-shot signals outside the navigation signal (FSLib's `notify…` methods).
    public enum NotificationKind: Sendable, Equatable {
        /// `direction_notification` toward a direction, once, on the temporary channel 0.
        case direction(Int, orientation: OrientationType = .bearing, intensity: Int? = nil)
        /// `warning` (25 %, channel 0) or, if critical, `critical_warning` (front/right/back/left, channel 0).
        case warning(critical: Bool)
        /// `destination_reached` once on channel 0, after stopping navigation if asked.
        case destinationReached(stopNavigation: Bool)
        /// The firmware's battery-level signal, `20 02`.
        case batteryLevel
    }

    /// A preset's channel configuration as a vibrate command, with range errors as `invalidValue`.
    static func vibrate(
        _ preset: BeltSignalPreset, direction: Int = 0, orientation: OrientationType = .bearing, channel: Int? = nil,
        intensity: Int? = nil
    ) throws(CommandError) -> BeltCommand {
        do {
            return .vibrate(
                try preset.configuration(
                    direction: direction, orientationType: orientation, channel: channel, intensity: intensity))
        } catch {
            throw CommandError(.invalidValue, "'\(error.field)' \(error.message)")
        }
    }
}
