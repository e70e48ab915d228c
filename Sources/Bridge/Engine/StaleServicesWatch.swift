/// Whether BlueZ's copy of a device's GATT services has gone stale. BlueZ keeps that copy between connections and, when
/// the device's Database Hash has not changed, uses it without discovering the services again. A copy taken while the
/// device's services were changing (a peripheral that registers them while a central connects) can lack one of them
/// for good: on the real stack a belt then failed every set-up on a characteristic it has, until BlueZ forgot it.
/// A set-up that failed having looked for a characteristic the copy lacks, twice in a row, is taken as that; one
/// that failed otherwise, or succeeded, starts the count again. A device may also really lack one (a family's
/// firmware older than its profile): forgetting it then costs one discovery, and the count starts over.
struct StaleServicesWatch {
    private var misses = 0

    mutating func setUpSucceeded() { misses = 0 }

    /// A set-up failed; `missing` is the characteristic it looked for and BlueZ's copy lacked, if any. Returns it when
    /// the copy is to be forgotten now.
    mutating func setUpFailed(missing: String?) -> String? {
        guard let missing else {
            misses = 0
            return nil
        }
        misses += 1
        guard misses >= 2 else { return nil }
        misses = 0
        return missing
    }
}
