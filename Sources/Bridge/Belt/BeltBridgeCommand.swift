import Peripherals

/// A parsed `belt/<id>/cmd/<name>`: what the session has to do.
enum BeltBridgeCommand: Sendable {
    /// One GATT write (confirmed by the belt when the command has an acknowledgement).
    case write(BeltCommand)
    /// A vibration (`vibrate`, `channel`, `pulse`): outside app mode the belt ignores most of them, so
    /// the session switches to app mode first when `switchToApp`, and refuses otherwise.
    case vibration(BeltCommand, switchToApp: Bool)
    /// Orientation notifications on or off (the FE0C subscription), and/or their period.
    case orientation(enabled: Bool?, periodMs: Int?)
    /// The navigation API: start, update, pause, resume or stop.
    case navigation(NavigationRequest)
    /// A one-shot signal (FSLib's `notify…`).
    case notify(BeltNavigation.NotificationKind)
}

/// What `cmd/navigation` asks for.
enum NavigationRequest: Sendable, Equatable {
    case start(BeltNavigation.Signal)
    case update(BeltNavigation.Signal)
    case pause
    case resume
    case stop
}

extension BeltNavigation {
    /// Runs one `cmd/navigation` request, with or without a belt.
    mutating func handle(_ request: NavigationRequest, now: ContinuousClock.Instant) throws(CommandError)
        -> [NavigationAction]
    {
        switch request {
        case .start(let signal): try start(signal, now: now)
        case .update(let signal): try update(signal, now: now)
        case .pause: pause()
        case .resume: try resume(now: now)
        case .stop: stop()
        }
    }
}
