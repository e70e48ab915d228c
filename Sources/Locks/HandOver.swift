/// A hand-over of an object from one thread to a task that ThreadSanitizer cannot see on its own: the
/// concurrency runtime tells ThreadSanitizer that a continuation's resume happens before its task runs
/// again only when the task had already suspended. A continuation resumed before its task reaches the
/// `await` (a reply that is quicker than the task) is picked up on a fast path the runtime does not
/// annotate, so whatever the resuming thread built reads to ThreadSanitizer as a race, although the
/// runtime's acquire and release order it. Built by scripts/tsan (`-DGATT2MQTT_TSAN`), `publish` before
/// the resume and `receive` after the `await` say so; in any other build they are nothing.
public enum HandOver {
    /// Called by the resuming thread, after it finished with `object` and before it resumes.
    @inline(__always)
    public static func publish(_ object: AnyObject) {
        #if GATT2MQTT_TSAN
            ThreadSanitizer.release(Unmanaged.passUnretained(object).toOpaque())
        #endif
    }

    /// Called by the task once its `await` returned, before it reads what `object` carries.
    @inline(__always)
    public static func receive(_ object: AnyObject) {
        #if GATT2MQTT_TSAN
            ThreadSanitizer.acquire(Unmanaged.passUnretained(object).toOpaque())
        #endif
    }
}
