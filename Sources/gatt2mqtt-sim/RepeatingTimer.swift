/// A task that runs `tick` once per period, scheduled by deadline: each deadline is the previous one plus
/// the period, so the time `tick` takes and the scheduler's wake-up delay do not add up into a slower
/// rate (sleeping a period after each tick loses several percent at 200 ticks a second). After a stall
/// of more than a period it does not make up for every missed tick: one comes at once, then the rate
/// resumes.
enum RepeatingTimer {
    /// Starts the task. `period` is asked before every round, so a new period (a central's write) applies
    /// from the next tick; nil ends the task, as cancellation does.
    static func start(
        period: @escaping @Sendable () async -> Duration?, tick: @escaping @Sendable () async -> Void
    ) -> Task<Void, Never> {
        Task {
            var deadline = ContinuousClock.now
            while !Task.isCancelled {
                guard let period = await period() else { return }
                deadline = max(deadline + period, ContinuousClock.now - period)
                try? await Task.sleep(until: deadline, clock: .continuous)
                guard !Task.isCancelled else { return }
                await tick()
            }
        }
    }

    /// The period of `count` ticks a second (1 ms at 1000).
    static func period(perSecond count: Int) -> Duration { .seconds(1) / count }
}

/// The values a simulator streams while a central is subscribed: a `RepeatingTimer` started by the subscription (a
/// new one replaces the last) and stopped with it.
struct SubscribedStream {
    private var timer: Task<Void, Never>?

    /// `tick` once a period from now on, while `owner` (the simulator) lives.
    mutating func start(
        period: Duration, for owner: some AnyObject & Sendable, tick: @escaping @Sendable () async -> Void
    ) {
        timer?.cancel()
        timer = RepeatingTimer.start(period: { [weak owner] in owner == nil ? nil : period }, tick: tick)
    }

    mutating func stop() {
        timer?.cancel()
        timer = nil
    }
}

extension Duration {
    /// The duration in seconds, as a simulator counts distance and energy over its period.
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
