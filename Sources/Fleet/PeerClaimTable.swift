/// The latest claim of each other gateway for one device, with when it arrived on this gateway's
/// clock. Claims only ever count for a lease after arrival: a gateway that died (SIGKILL, or its
/// broker died and its will was never published) fades out without any message.
struct PeerClaimTable: Sendable {
    private struct Entry: Sendable {
        var claim: Claim
        var receivedAt: FleetInstant
    }

    // Kept sorted by gateway name, so every decision is independent of arrival order. Entries stay
    // after they expire: the (incarnation, sequence) high-water mark must survive, or a very late
    // message could come back to life. A fleet has a handful of gateways, so a sorted array is
    // the simplest fit.
    private var entries: [Entry] = []

    /// Stores the claim unless an equal or newer one from the same gateway is already known.
    mutating func record(_ claim: Claim, at instant: FleetInstant) -> Bool {
        let index = entries.firstIndex { $0.claim.gateway >= claim.gateway } ?? entries.endIndex
        if index < entries.endIndex, entries[index].claim.gateway == claim.gateway {
            guard claim.isNewer(than: entries[index].claim) else { return false }
            entries[index] = Entry(claim: claim, receivedAt: instant)
        } else {
            entries.insert(Entry(claim: claim, receivedAt: instant), at: index)
        }
        return true
    }

    /// Ends `gateway`'s lease now (its will arrived); its high-water mark stays. Its last claim, if any.
    mutating func expire(_ gateway: String) -> Claim? {
        guard let index = entries.firstIndex(where: { $0.claim.gateway == gateway }) else { return nil }
        entries[index].receivedAt = FleetInstant(nanoseconds: .min)
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
