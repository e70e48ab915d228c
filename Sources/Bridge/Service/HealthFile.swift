import Logging

#if canImport(Glibc)
    import Glibc
#endif

/// Says the gateway is alive where no systemd watchdog listens (a container's HEALTHCHECK): the file's
/// modification time is set every `interval` while the same health check as the watchdog's passes, so a
/// wedged daemon leaves it to age.
struct HealthFile: Sendable {
    let path: String
    let interval: Duration
    let logger: Logger

    /// What a round found; only a change from the round before is logged.
    private enum Round: Equatable {
        case touched
        case cannotTouch(Int32)
        case unhealthy
    }

    func run(isHealthy: @Sendable () async -> Bool) async {
        var last: Round?
        var touchedBefore = false
        while !Task.isCancelled {
            let round: Round = await isHealthy() ? touch().map(Round.cannotTouch) ?? .touched : .unhealthy
            if round != last {
                switch round {
                case .touched where !touchedBefore:
                    logger.info("health file \(path): touched every \(interval) while BlueZ's bus answers")
                case .touched:
                    logger.notice("health file \(path): touched again")
                case .cannotTouch(let code):
                    logger.warning("cannot touch the health file \(path): \(String(cString: strerror(code)))")
                case .unhealthy:
                    // The file ages from now: a HEALTHCHECK that reads it will call the gateway unhealthy.
                    logger.warning("health file \(path): no longer touched, BlueZ's bus does not answer")
                }
            }
            touchedBefore = touchedBefore || round == .touched
            last = round
            do { try await Task.sleep(for: interval) } catch { return }
        }
    }

    /// Creates the file or sets its times to now; the errno on failure.
    private func touch() -> Int32? {
        // Never waited on: a FIFO put in its place would hold this task for good.
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o644)
        guard descriptor >= 0 else { return errno }
        defer { close(descriptor) }
        return futimens(descriptor, nil) == 0 ? nil : errno
    }
}
