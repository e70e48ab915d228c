/// Home Assistant's birth message (`online` on `<prefix>/status`) asks for every config again, and anyone on the
/// broker can send it: 20 births once brought 860 retained configs in 6 s. So at most one re-announcement per
/// `holdOff`: the first birth after a quiet spell is answered at once, and every birth during the hold-off is
/// folded into one re-announcement at its end (a Home Assistant that restarted meanwhile still gets its configs).
/// Time is passed in, so the rule is tested without waiting.
struct BirthCoalescer: Sendable {
    enum Decision: Equatable, Sendable {
        /// Re-announce now.
        case now
        /// Re-announce at this instant (then call `dueAnnounced(at:)`).
        case at(ContinuousClock.Instant)
        /// A re-announcement is already due: this birth is folded into it.
        case folded
    }

    let holdOff: Duration
    private var lastAnnouncement: ContinuousClock.Instant?
    private var due: ContinuousClock.Instant?

    init(holdOff: Duration) {
        self.holdOff = holdOff
    }

    mutating func birth(at now: ContinuousClock.Instant) -> Decision {
        if due != nil { return .folded }
        if let last = lastAnnouncement, now - last < holdOff {
            let end = last + holdOff
            due = end
            return .at(end)
        }
        lastAnnouncement = now
        return .now
    }

    /// The re-announcement that was due has been made, at `now`: the next hold-off starts.
    mutating func dueAnnounced(at now: ContinuousClock.Instant) {
        due = nil
        lastAnnouncement = now
    }
}
