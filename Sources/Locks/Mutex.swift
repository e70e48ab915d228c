import Synchronization

/// The project's lock: the standard library's `Synchronization.Mutex`, which on Linux waits on a futex
/// that ThreadSanitizer cannot see, so every access it guards reads to ThreadSanitizer as a race. Built
/// by scripts/tsan (`-DGATT2MQTT_TSAN`), this one tells ThreadSanitizer where each critical section
/// begins and ends; in any other build it is the standard library's lock and nothing else.
///
/// Files that use it import `Locks`, and `struct Synchronization.Atomic` alone when they also need
/// atomics: both modules name a `Mutex`, and a whole `import Synchronization` would make it ambiguous.
///
/// Inlinable, so that each caller gets it specialized for its value: an unspecialized generic call from another
/// module looks up its types' metadata at run time, on every notification's path (the lane's lock) among others.
public struct Mutex<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    @usableFromInline let lock: Synchronization.Mutex<Value>
    #if GATT2MQTT_TSAN
        /// An address of its own for the annotations (the value's address cannot be taken without an access).
        @usableFromInline let token = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
    #endif

    @inlinable
    public init(_ initialValue: consuming sending Value) {
        lock = Synchronization.Mutex(initialValue)
    }

    #if GATT2MQTT_TSAN
        deinit { token.deallocate() }
    #endif

    /// Runs `body` with the value while holding the lock.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        #if GATT2MQTT_TSAN
            let token = token
            return try lock.withLock { (value: inout sending Value) throws(E) -> sending Result in
                ThreadSanitizer.acquire(token)
                defer { ThreadSanitizer.release(token) }
                return try body(&value)
            }
        #else
            // `body` itself, not a closure around it: Swift 6.2's checker (Debian's swiftlang, the arm64 path of
            // issue #42) reports passing the value on from such a closure as "sending 'value' risks causing data
            // races", which 6.3 accepts.
            return try lock.withLock(body)
        #endif
    }
}
