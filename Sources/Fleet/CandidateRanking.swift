/// The order in which gateways get a device nobody owns. Every gateway computes it over the same
/// published claims, so all of them pick the same first one when their views agree.
public enum CandidateRanking {
    /// True when the claim's gateway may take the device at all: it is not an owner, hears the
    /// device and has a free slot. A gateway that fails this never takes ownership.
    public static func isEligible(_ claim: Claim) -> Bool {
        claim.state != .owner && claim.rssi != nil && claim.freeSlots > 0
    }

    /// True when `lhs` ranks before `rhs`: candidates before gateways that just released (so a
    /// hand-over does not bounce straight back), then the stronger smoothed RSSI, then the smaller
    /// gateway name as a tie-break every gateway agrees on. Ineligible claims rank last.
    public static func ranksBefore(_ lhs: Claim, _ rhs: Claim) -> Bool {
        let left = isEligible(lhs)
        let right = isEligible(rhs)
        if left != right { return left }
        let leftReleased = lhs.state == .released
        let rightReleased = rhs.state == .released
        if leftReleased != rightReleased { return !leftReleased }
        let leftRSSI = lhs.rssi ?? Int.min
        let rightRSSI = rhs.rssi ?? Int.min
        if leftRSSI != rightRSSI { return leftRSSI > rightRSSI }
        return lhs.gateway < rhs.gateway
    }

    /// The eligible claim that ranks first, or nil when no gateway may take the device.
    public static func first(among claims: [Claim]) -> Claim? {
        claims.filter(isEligible).min(by: ranksBefore)
    }
}
