/// The latest claim of each other gateway for one device, with when it arrived on this gateway's
/// clock. Claims only ever count for a lease after arrival: a gateway that died (SIGKILL, or its
/// broker died and its will was never published) fades out without any message.
struct PeerClaimTable: Sendable {
    private struct Entry: Sendable {
        var claim: Claim
        var receivedAt: FleetInstant
    }

    // Kept sorted by gateway name, so every decision is independent of arrival order. Entries stay
    // after they expire, for a while: the (incarnation, sequence) high-water mark must survive, or a
    // late message could come back to life. But not for ever: one forged claim under a gateway's
    // name with the largest incarnation would make every later claim of that gateway stale, and the
    // others would never see it own anything again (two owners for good). So a high-water mark that
    // nothing newer has renewed for `memory` gives way to whatever that gateway sends next: a live
    // gateway renews its own every refresh, and a late message past that is one lease's trouble.
    // A fleet has a handful of gateways, so a sorted array is the simplest fit.
    private var entries: [Entry] = []

    /// Stores the claim unless an equal or newer one from the same gateway arrived within `memory`.
    mutating func record(_ claim: Claim, at instant: FleetInstant, memory: Duration) -> Bool {
        let index = entries.firstIndex { $0.claim.gateway >= claim.gateway } ?? entries.endIndex
        if index < entries.endIndex, entries[index].claim.gateway == claim.gateway {
            guard claim.isNewer(than: entries[index].claim) || instant >= entries[index].receivedAt + memory else {
                return false
            }
            entries[index] = Entry(claim: claim, receivedAt: instant)
        } else {
            entries.insert(Entry(claim: claim, receivedAt: instant), at: index)
        }
        return true
    }

    /// Ends `gateway`'s lease at `instant` (its will arrived); its high-water mark stays as if the claim had
    /// arrived a lease ago. Its last claim, if any.
    mutating func expire(_ gateway: String, at instant: FleetInstant, lease: Duration) -> Claim? {
        guard let index = entries.firstIndex(where: { $0.claim.gateway == gateway }) else { return nil }
        entries[index].receivedAt = min(entries[index].receivedAt, instant - lease)
        return entries[index].claim
    }

    /// The claims still within their lease at `now`, ordered by gateway name.
    func live(at now: FleetInstant, lease: Duration) -> [Claim] {
        var claims: [Claim] = []
        for entry in entries where now < entry.receivedAt + lease {
            claims.append(entry.claim)
        }
        return claims
    }
}
