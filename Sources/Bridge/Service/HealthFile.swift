#if canImport(Glibc)
    import Glibc
#endif
import Logging

/// Says the gateway is alive where no systemd watchdog listens (a container's HEALTHCHECK): the file's
/// modification time is set every `interval` while the same health check as the watchdog's passes, so a
/// wedged daemon leaves it to age.
struct HealthFile: Sendable {
    /// The interval of a health file made without one (as `WatchdogService` makes it). A task-local, not a
    /// setting: the daemon never binds it, and a test binds it around the gateway it starts, to see rounds
    /// in milliseconds instead of 15 s.
    @TaskLocal static var defaultInterval: Duration = .seconds(15)

    let path: String
    var interval: Duration = HealthFile.defaultInterval
    let logger: Logger

    func run(isHealthy: @Sendable () async -> Bool) async {
        var failure: Int32?
        var first = true
        while !Task.isCancelled {
            if await isHealthy() {
                let code = touch()
                if code != failure {
                    if let code { logger.warning("cannot touch the health file \(path): \(String(cString: strerror(code)))") }
                    else if !first { logger.notice("the health file \(path) is touched again") }
                }
                if code == nil && first {
                    logger.info("health file \(path): touched every \(interval) while BlueZ's bus answers")
                    first = false
                }
                failure = code
            }
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }

    /// Creates the file or sets its times to now; the errno on failure.
    private func touch() -> Int32? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        return futimens(descriptor, nil) == 0 ? nil : errno
    }
}
