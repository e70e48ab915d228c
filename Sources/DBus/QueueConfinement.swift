import Dispatch

/// Debug builds check where libdbus is used: only on the connection's serial queue (run inline by `dbus-io`,
/// or a block the queue runs), which is what makes the connection safe without libdbus's own locking. The
/// check is an `assert`: release builds do not make it.
@inline(__always)
func assertConfined(to queue: DispatchQueue) {
    assert(
        {
            dispatchPrecondition(condition: .onQueue(queue))
            return true
        }())
}
