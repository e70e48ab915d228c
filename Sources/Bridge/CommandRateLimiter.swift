/// Commands per device and second, as a token bucket: a burst up to `burst`, then `perSecond`. A client
/// gone wild is refused with `rate_limited` instead of flooding the device's queue.
struct CommandRateLimiter: Sendable {
    var perSecond: Double
    var burst: Double
    private var buckets: [String: (tokens: Double, updated: ContinuousClock.Instant)] = [:]

    init(perSecond: Double, burst: Double) {
        self.perSecond = perSecond
        self.burst = max(burst, 1)
    }

    /// Takes a token for `key`; false when there is none left.
    mutating func admit(_ key: String, at now: ContinuousClock.Instant) -> Bool {
        var bucket = buckets[key] ?? (burst, now)
        bucket.tokens = min(burst, bucket.tokens + (now - bucket.updated) / .seconds(1) * perSecond)
        bucket.updated = now
        let admitted = bucket.tokens >= 1
        if admitted { bucket.tokens -= 1 }
        buckets[key] = bucket
        return admitted
    }
}
