import Peripherals

/// Navigation on the belt, run the way feelSpace's navigation controllers run it (FSLib-Android
/// `NavigationController.java`, FSLib-iOS `FSNavigationController.swift`). Pure: the caller feeds it
/// requests, belt reports and the time, and carries out the `NavigationAction`s it returns.
///
/// The state belongs to the bridge, not to the link: navigation can be started, updated, paused and
/// stopped while the belt is away, and `connected(mode:now:)` restores it. While navigating the belt
/// is in app mode with the signal on channel 2; while paused it is in pause mode (or in whatever mode
/// a button took it to).
///
/// Rules, as in FSLib:
/// - start: state navigating. A belt in app mode gets the signal; any other mode gets `changeMode(app)`,
///   and the signal follows once the belt reports app mode. Starting while navigating is an update.
/// - update: stores the signal; while navigating it is sent, at most one send per 100 ms (below).
///   Only repeated presets guide navigation; no preset (or intensity 0) stops channel 2 instead.
/// - pause: only while navigating; a belt in app mode gets `changeMode(pause)`.
/// - stop: a belt in app mode, or in a pause that navigation set, gets `changeMode(wait)`.
/// - belt mode reports (only changes count, so the keep-alive's repeats are harmless): wait stops
///   navigation; compass, calibration and crossing pause it; pause pauses it (or, while paused,
///   confirms the pause as navigation's own); app resends the signal while navigating and is turned
///   back to pause while paused; standby changes nothing (the belt is switching off).
/// - buttons: Pause with previous = new = app pauses navigation; Pause with previous = new = pause
///   resumes a paused navigation; Home with previous = new publishes `home_button` and resumes a paused
///   navigation; any press that
///   leaves the belt outside app mode (Compass, Power to standby…) pauses navigation.
/// - updates are coalesced: a send less than 100 ms after the previous one is held back and
///   `flushAfter` tells the caller when to call `flush(now:)`, which sends the newest signal.
///
/// Where this differs from FSLib, on purpose:
/// - While stopped the machine never touches the belt (FSLib switches an unexpected app mode to
///   wait), so that the plain `mode`/`vibrate` commands keep working outside navigation. The one
///   exception: if navigation itself asked for app mode and was stopped before the belt confirmed it,
///   the belt is sent back to wait, as FSLib would.
/// - The pause counts as navigation's (so that stop sends wait) only when the belt confirms a pause
///   navigation asked for. FSLib counts any pause report while paused, and forgets it on any button
///   press, so a stop could leave the belt in pause or wake a pause the user set from compass mode.
/// - While paused, a reconnect puts the belt back in pause mode (FSLib restores only navigating).
/// - Requests FSLib ignores are ignored here too and return no actions (pause unless navigating,
///   stop while stopped, resume while navigating). `resume` while stopped and `update` while stopped
///   throw `invalidValue`: there is no signal to play.
/// - A held-back update goes out 100 ms after the previous send (FSLib: 100 ms after the update).
public struct BeltNavigation: Sendable {
    /// Navigation state, published as `belt/<id>/navigation`.
    public enum State: String, Sendable, CaseIterable {
        case stopped, paused, navigating
    }

    /// Minimum time between two navigation signal sends (FSLib: 100 ms).
    public static let minimumUpdateInterval: Duration = .milliseconds(100)
    /// Channel of the navigation signal (FSLib `NAVIGATION_SIGNAL_CHANNEL`).
    public static let channel = BeltSignalPreset.navigationChannel

    /// Current state.
    public private(set) var state: State = .stopped
    /// The navigation signal while navigating or paused; nil while stopped.
    public private(set) var signal: Signal?
    /// The belt's mode as last reported, nil while the belt is not connected.
    public private(set) var beltMode: BeltMode?

    /// `signal` as a command, built (and checked) when the signal was set.
    private var signalCommand: BeltCommand = .stopChannel(BeltNavigation.channel)
    /// The last mode navigation asked for and the belt has not reported yet.
    private var requestedModes: [BeltMode] = []
    /// The belt is in a pause that navigation set (FSLib `isPauseModeForNavigation`).
    private var pauseIsNavigation = false
    /// When the signal was last sent.
    private var lastSend: ContinuousClock.Instant?
    /// When a held-back signal is due; nil when nothing is held back.
    private var flushDue: ContinuousClock.Instant?

    public init() {}

    /// Whether a belt is connected (through its handshake).
    public var isConnected: Bool { beltMode != nil }

    // MARK: Requests

    /// Starts navigation with `signal`, or updates the signal if already navigating. Works while the
    /// belt is away; `connected(mode:now:)` then restores it.
    /// - Throws: `invalidValue` for a one-shot preset, a bad orientation or intensity; nothing changes.
    public mutating func start(_ signal: Signal, now: ContinuousClock.Instant) throws(CommandError)
        -> [NavigationAction]
    {
        let command = try signal.command()
        if state == .navigating { return setSignal(signal, command, now: now) }
        self.signal = signal
        signalCommand = command
        return navigate(now: now)
    }

    /// Replaces the signal. While navigating it is sent (coalesced); while paused it is kept for the resume.
    /// - Throws: `invalidValue` for a bad signal, or while stopped.
    public mutating func update(_ signal: Signal, now: ContinuousClock.Instant) throws(CommandError)
        -> [NavigationAction]
    {
        let command = try signal.command()
        guard state != .stopped else { throw CommandError(.invalidValue, "navigation is stopped; start it first") }
        return setSignal(signal, command, now: now)
    }

    /// Pauses navigation; a belt in app mode is switched to pause. Ignored unless navigating.
    public mutating func pause() -> [NavigationAction] {
        guard state == .navigating else { return [] }
        flushDue = nil
        let actions = beltMode == .app ? changeMode(to: .pause) : []
        return actions + transition(to: .paused)
    }

    /// Resumes a paused navigation with its signal (FSLib: `startNavigation` with the stored signal).
    /// Ignored while navigating.
    /// - Throws: `invalidValue` while stopped.
    public mutating func resume(now: ContinuousClock.Instant) throws(CommandError) -> [NavigationAction] {
        switch state {
        case .navigating: return []
        case .stopped: throw CommandError(.invalidValue, "navigation is stopped; nothing to resume")
        case .paused: return navigate(now: now)
        }
    }

    /// Stops navigation and forgets the signal; a belt in app mode, or in navigation's pause, goes to
    /// wait. Ignored while stopped.
    public mutating func stop() -> [NavigationAction] {
        guard state != .stopped else { return [] }
        flushDue = nil
        let actions = beltMode == .app || (beltMode == .pause && pauseIsNavigation) ? changeMode(to: .wait) : []
        signal = nil
        signalCommand = .stopChannel(Self.channel)
        return actions + transition(to: .stopped)
    }

    /// Sends the held-back signal once it is due; before that it answers with the remaining delay.
    /// Calling it with nothing held back is harmless.
    public mutating func flush(now: ContinuousClock.Instant) -> [NavigationAction] {
        guard let due = flushDue else { return [] }
        guard now >= due else { return [.flushAfter(now.duration(to: due))] }
        flushDue = nil
        return sendSignal(now: now)
    }

    /// A one-shot signal. `destinationReached(stopNavigation: true)` stops navigation first.
    /// - Throws: `notConnected` without a belt, `invalidValue` for a bad direction signal; nothing changes.
    public mutating func notify(_ kind: NotificationKind) throws(CommandError) -> [NavigationAction] {
        guard isConnected else { throw CommandError(.notConnected, "no belt connected for the notification") }
        switch kind {
        case .direction(let direction, let orientation, let intensity):
            try Signal.checkDirectional(orientation, field: "orientation")
            if let intensity, !(0...100).contains(intensity) {
                throw CommandError(.invalidValue, "'intensity' must be between 0 and 100")
            }
            return [
                .send(
                    try Self.vibrate(
                        .directionNotification, direction: direction, orientation: orientation, intensity: intensity))
            ]
        case .warning(let critical):
            return [.send(try Self.vibrate(critical ? .criticalWarning : .warning))]
        case .destinationReached(let stopNavigation):
            let signal = try Self.vibrate(.destinationReached)
            return (stopNavigation ? stop() : []) + [.send(signal)]
        case .batteryLevel:
            return [.send(.systemSignal(.batteryLevel))]
        }
    }

    // MARK: Belt reports

    /// The belt finished its handshake in `mode`: restores navigation (app mode and the signal) or a
    /// navigation pause (pause mode).
    public mutating func connected(mode: BeltMode, now: ContinuousClock.Instant) -> [NavigationAction] {
        forgetLink()
        beltMode = mode
        switch state {
        case .stopped: return []
        case .navigating: return enterAppMode(now: now)
        case .paused:
            if mode == .pause {
                pauseIsNavigation = true
                return []
            }
            return changeMode(to: .pause)
        }
    }

    /// The link is gone. Navigation state and signal are kept.
    public mutating func disconnected() {
        forgetLink()
    }

    /// The belt reported its mode (FE06 `01 01 m` or the keep-alive). Only a change counts.
    public mutating func modeChanged(to mode: BeltMode, now: ContinuousClock.Instant) -> [NavigationAction] {
        guard let previous = beltMode, previous != mode else { return [] }
        guard let requested = record(mode) else { return [] }  // a stale confirmation: a later request is on its way
        switch mode {
        case .standby:
            return []
        case .wait:
            return stop()
        case .app:
            switch state {
            case .navigating: return requestSend(now: now)
            case .paused: return changeMode(to: .pause)
            case .stopped: return requested == .app ? changeMode(to: .wait) : []
            }
        case .pause:
            if state == .paused {
                // FSLib takes any pause report while paused as navigation's own pause.
                pauseIsNavigation = requested == .pause
                return []
            }
            return pause()
        case .compass, .calibration, .crossing:
            return pause()
        }
    }

    /// A button press (FE04). Its new mode is taken as the belt's mode without the mode rules: the
    /// button rules decide.
    public mutating func button(_ event: BeltButtonEvent, now: ContinuousClock.Instant) -> [NavigationAction] {
        guard isConnected else { return [] }
        _ = record(event.newMode)
        if event.previousMode == event.newMode {
            switch (event.button, event.newMode) {
            case (.home, _):
                // FSLib's controllers resume a paused navigation on Home (startNavigation with the stored
                // signal); the event is published either way, for the app to decide anything else.
                return [.publishEvent(Self.homeButtonEvent)] + (state == .paused ? navigate(now: now) : [])
            case (.pause, .app):
                // The belt leaves pausing to the app.
                switch state {
                case .navigating: return pause()
                case .paused: return changeMode(to: .pause)  // out of sync
                case .stopped: return []
                }
            case (.pause, .pause):
                // In a pause the app set, the belt leaves resuming to the app.
                switch state {
                case .paused: return navigate(now: now)
                case .navigating: return changeMode(to: .app)  // out of sync
                case .stopped: return []
                }
            case (.pause, _):
                return []  // the belt changed the mode itself
            default:
                break
            }
        }
        // A button cannot bring the belt into app mode; anything else ends the navigation signal.
        return event.newMode != .app ? pause() : []
    }

    // MARK: Internals

    private mutating func transition(to newState: State) -> [NavigationAction] {
        guard newState != state else { return [] }
        state = newState
        return [.publishState(newState)]
    }

    /// State navigating, then app mode; the state is published after the commands, as FSLib does.
    private mutating func navigate(now: ContinuousClock.Instant) -> [NavigationAction] {
        let published = transition(to: .navigating)
        return enterAppMode(now: now) + published
    }

    private mutating func setSignal(_ signal: Signal, _ command: BeltCommand, now: ContinuousClock.Instant)
        -> [NavigationAction]
    {
        self.signal = signal
        signalCommand = command
        return requestSend(now: now)
    }

    /// App mode for navigation: the signal if the belt is there, otherwise the mode change (the signal
    /// follows the belt's report of app mode).
    private mutating func enterAppMode(now: ContinuousClock.Instant) -> [NavigationAction] {
        // A mode change still on its way counts: app is coming (its report brings the signal), or
        // another mode is, which app has to follow.
        if let pending = requestedModes.last { return pending == .app ? [] : changeMode(to: .app) }
        guard let mode = beltMode else { return [] }
        return mode == .app ? requestSend(now: now) : changeMode(to: .app)
    }

    private mutating func changeMode(to mode: BeltMode) -> [NavigationAction] {
        requestedModes.append(mode)
        return [.send(.changeMode(mode))]
    }

    /// Takes `mode` as the belt's and returns the mode navigation had asked for before.
    /// Takes a mode report. Returns nil for the confirmation of a request that a later request has
    /// already replaced (it changes nothing); otherwise `.some(request)` with the mode navigation had
    /// asked for, if any (`.some(nil)` for a change the belt made by itself).
    private mutating func record(_ mode: BeltMode) -> BeltMode?? {
        let latest = requestedModes.last
        if let index = requestedModes.firstIndex(of: mode) {
            let superseded = index < requestedModes.count - 1
            requestedModes.removeFirst(index + 1)
            if superseded {
                beltMode = mode
                return nil
            }
        }
        if mode != .pause { pauseIsNavigation = false }
        beltMode = mode
        return .some(latest)
    }

    private var canSend: Bool { state == .navigating && beltMode == .app }

    /// Sends now, or holds the signal back until 100 ms after the last send; a held-back signal is
    /// replaced by newer ones and sent once.
    private mutating func requestSend(now: ContinuousClock.Instant) -> [NavigationAction] {
        guard canSend, flushDue == nil else { return [] }
        if let lastSend, now < lastSend + Self.minimumUpdateInterval {
            let due = lastSend + Self.minimumUpdateInterval
            flushDue = due
            return [.flushAfter(now.duration(to: due))]
        }
        return sendSignal(now: now)
    }

    private mutating func sendSignal(now: ContinuousClock.Instant) -> [NavigationAction] {
        guard canSend else { return [] }
        lastSend = now
        return [.send(signalCommand)]
    }

    private mutating func forgetLink() {
        beltMode = nil
        requestedModes = []
        pauseIsNavigation = false
        lastSend = nil
        flushDue = nil
    }
}
