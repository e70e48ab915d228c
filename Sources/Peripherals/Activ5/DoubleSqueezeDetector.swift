/// Host-side double-squeeze detection, the iOS library's `DoubleSqeezeHelper` plus the manager's
/// de-duplication (activ5.md §7), as a pure value fed with force samples in newtons and times in seconds.
///
/// Vendor behaviour kept exactly:
/// - Comparisons are strict: a press is `f > pressed`, a release `f < released`; values in between change nothing.
/// - Every sample above `pressed` restarts the one-shot window, so it counts from the last such sample. The
///   first release leaves the window running; the second release cancels it. When it runs out the phase
///   returns to `initial` silently.
/// - `.squeezed`/`.released` are the manager's `squeezeStateChanged`: raised only when the squeezed flag
///   actually flips, and a release is only seen in the two "pressed" phases. So if the window runs out
///   while the force hovers between the thresholds, the later release is not reported and the next press
///   is not reported either; the two events still alternate strictly.
/// - On the second release the order is `.released`, then `.doubleSqueeze`.
///
/// Choices:
/// - One detector per device, where the vendor's state is static and shared by all devices.
/// - The timer is evaluated lazily on the next sample (or `advance(to:)`); since expiry only resets the
///   phase and raises no event, that is equivalent. A sample exactly at the deadline sees the timer fired.
public struct DoubleSqueezeDetector: Sendable, Equatable {
    /// Thresholds of the detector; iOS's `SqueezeThreshold.base` by default.
    public struct Thresholds: Sendable, Equatable {
        /// Force above which the sensor counts as squeezed, 20 N by default.
        public var pressedNewtons: Double
        /// Force below which it counts as released, 5 N by default.
        public var releasedNewtons: Double
        /// Window after the last sample above `pressedNewtons`, 5 s by default.
        public var windowSeconds: Double

        /// Creates thresholds.
        public init(pressedNewtons: Double = 20, releasedNewtons: Double = 5, windowSeconds: Double = 5) {
            self.pressedNewtons = pressedNewtons
            self.releasedNewtons = releasedNewtons
            self.windowSeconds = windowSeconds
        }
    }

    /// What a sample can trigger.
    public enum Event: Sendable, Equatable {
        /// The force rose above the press threshold.
        case squeezed
        /// The force fell below the release threshold after a press.
        case released
        /// Press, release, press, release, each press within the window of the previous one.
        case doubleSqueeze
    }

    /// The vendor's four states.
    public enum Phase: Sendable, Equatable {
        /// Waiting for a first press.
        case initial
        /// First press held.
        case firstPressed
        /// First press released; waiting for the second within the window.
        case firstPressCompleted
        /// Second press held.
        case secondPressed
    }

    /// The thresholds in use.
    public let thresholds: Thresholds
    /// Current phase.
    public private(set) var phase = Phase.initial
    /// The manager's squeeze state (starts released).
    public private(set) var isSqueezed = false
    /// When the running window ends, or nil when no window runs.
    public private(set) var windowDeadline: Double?

    /// Creates a detector in the initial phase.
    public init(thresholds: Thresholds = Thresholds()) {
        self.thresholds = thresholds
    }

    /// Feeds one force sample and returns the events it triggers, in order. NaN triggers nothing.
    public mutating func feed(newtons: Double, at time: Double) -> [Event] {
        advance(to: time)
        if newtons > thresholds.pressedNewtons {
            switch phase {
            case .initial: phase = .firstPressed
            case .firstPressCompleted: phase = .secondPressed
            case .firstPressed, .secondPressed: break
            }
            windowDeadline = time + thresholds.windowSeconds
            return setSqueezed(true)
        }
        guard newtons < thresholds.releasedNewtons else { return [] }
        switch phase {
        case .firstPressed:
            phase = .firstPressCompleted
            return setSqueezed(false)
        case .secondPressed:
            phase = .initial
            windowDeadline = nil
            return setSqueezed(false) + [.doubleSqueeze]
        case .initial, .firstPressCompleted:
            // The vendor fires no onDepressed here.
            return []
        }
    }

    /// Lets the window run out if `time` has reached its deadline (the vendor's timer firing).
    public mutating func advance(to time: Double) {
        guard let deadline = windowDeadline, time >= deadline else { return }
        windowDeadline = nil
        phase = .initial
    }

    private mutating func setSqueezed(_ squeezed: Bool) -> [Event] {
        guard isSqueezed != squeezed else { return [] }
        isSqueezed = squeezed
        return [squeezed ? .squeezed : .released]
    }
}
