import Logging

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#endif

/// Tells systemd how the daemon is doing (sd_notify(3)) without libsystemd: one datagram per
/// message to the AF_UNIX socket named by `NOTIFY_SOCKET`.
///
/// Outside systemd (no `NOTIFY_SOCKET`) every call is a silent no-op. Failures are logged and
/// reported through return values or typed throws, never fatal. The notifier holds no socket
/// between calls (each message opens, sends and closes, as sd_notify does), so it is a plain
/// `Sendable` value that any task may use.
public struct SystemdNotifier: Sendable {
    /// `nil` when `NOTIFY_SOCKET` is unset or empty; a failure when it is set but unusable.
    let destination: Result<NotifySocketAddress, SystemdNotifierError>?
    /// `WATCHDOG_USEC`, when it is set, valid, and meant for this process (see ``init(environment:logger:)``).
    public let watchdogTimeout: Duration?
    let logger: Logger

    /// How long a `send` may block when systemd is not reading its socket.
    static let sendTimeout = timeval(tv_sec: 1, tv_usec: 0)

    /// Reads `NOTIFY_SOCKET`, `WATCHDOG_USEC` and `WATCHDOG_PID` from `environment`.
    ///
    /// The watchdog counts as on as sd_watchdog_enabled(3) decides: `WATCHDOG_USEC` is a positive
    /// number of microseconds, and `WATCHDOG_PID`, when present, is this process's id (a parent
    /// that forked us keeps the watchdog to itself by naming its own pid).
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        logger: Logger = Logger(label: "gatt2mqtt.systemd")
    ) {
        self.logger = logger
        if let value = environment["NOTIFY_SOCKET"], !value.isEmpty {
            do {
                destination = .success(try NotifySocketAddress(value))
            } catch {
                destination = .failure(error)
                logger.warning("systemd notifications off: \(error)")
            }
        } else {
            destination = nil
        }
        watchdogTimeout = Self.watchdogTimeout(in: environment, logger: logger)
    }

    /// True when `NOTIFY_SOCKET` names a usable socket, that is when messages are sent at all.
    public var isEnabled: Bool {
        if case .success = destination { true } else { false }
    }

    /// How often ``runWatchdog(isHealthy:)`` pings: half the watchdog timeout, as sd_watchdog_enabled(3)
    /// recommends, so one late ping does not cost a restart. `nil` when systemd set no watchdog.
    public var watchdogInterval: Duration? { watchdogTimeout.map { $0 / 2 } }

    // MARK: Messages

    /// `READY=1`: start-up is done (for `Type=notify`, systemd waits for this before starting dependents).
    @discardableResult
    public func ready(status: String? = nil) -> Bool {
        notify(["READY=1"] + (status.map { [Self.statusAssignment($0)] } ?? []))
    }

    /// `STOPPING=1`: shutdown has begun.
    @discardableResult
    public func stopping(status: String? = nil) -> Bool {
        notify(["STOPPING=1"] + (status.map { [Self.statusAssignment($0)] } ?? []))
    }

    /// `STATUS=…`: a one-line state shown by `systemctl status`.
    @discardableResult
    public func status(_ text: String) -> Bool {
        notify([Self.statusAssignment(text)])
    }

    /// `WATCHDOG=1`: one keep-alive ping. ``runWatchdog(isHealthy:)`` sends these on schedule.
    @discardableResult
    public func watchdog() -> Bool {
        notify(["WATCHDOG=1"])
    }

    /// Sends `assignments` as one message and logs a failure. True when the message was delivered;
    /// false when it was not (no `NOTIFY_SOCKET`, or an error that has been logged).
    @discardableResult
    public func notify(_ assignments: [String]) -> Bool {
        do {
            return try send(assignments.joined(separator: "\n"))
        } catch .unsupportedSocketAddress, .socketAddressTooLong {
            return false  // logged once, by init
        } catch {
            logger.warning("\(error)")
            return false
        }
    }

    /// Sends `message` (newline-separated `KEY=value` lines) as one datagram.
    ///
    /// - Returns: false without sending when there is no `NOTIFY_SOCKET`; true when sent.
    @discardableResult
    public func send(_ message: String) throws(SystemdNotifierError) -> Bool {
        guard let destination else { return false }
        let address = try destination.get()
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .socketFailed(errno: errno) }
        defer { close(descriptor) }
        // Bounded, not non-blocking: a busy systemd gets a moment to drain its queue, a wedged one cannot hold us.
        var timeout = Self.sendTimeout
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let bytes = Array(message.utf8)
        let (sent, code): (Int, Int32) = address.withSocketAddress { socketAddress, length in
            bytes.withUnsafeBytes { buffer in
                while true {
                    let sent = sendto(
                        descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                    if sent < 0 && errno == EINTR { continue }
                    return (sent, sent < 0 ? errno : 0)
                }
            }
        }
        guard sent >= 0 else { throw .sendFailed(socket: address.description, errno: code) }
        guard sent == bytes.count else {
            throw .shortSend(socket: address.description, sent: sent, expected: bytes.count)
        }
        return true
    }

    // MARK: Watchdog

    /// Pings `WATCHDOG=1` every ``watchdogInterval`` while `isHealthy` says so; returns when the
    /// task is cancelled.
    ///
    /// A failed check withholds the ping, so a daemon that stays unhealthy (or wedged inside
    /// the check) for `WatchdogSec` is killed and, with `Restart=on-failure`, started again.
    /// Without a watchdog (or a notify socket) it sends nothing and only waits for cancellation,
    /// so it may sit in a task group whose children are all meant to run until cancelled.
    public func runWatchdog(isHealthy: @Sendable () async -> Bool = { true }) async {
        guard isEnabled, let interval = watchdogInterval else {
            await Self.waitForCancellation()
            return
        }
        logger.info("systemd watchdog on", metadata: ["interval": "\(interval)"])
        let clock = ContinuousClock()
        var wasHealthy = true
        var lastFailure: SystemdNotifierError?
        while !Task.isCancelled {
            let deadline = clock.now.advanced(by: interval)
            // No cancellation check between the verdict and its ping: a healthy check is always answered.
            if await isHealthy() {
                if !wasHealthy { logger.notice("health check passes again; watchdog pings resume") }
                wasHealthy = true
                do {
                    try send("WATCHDOG=1")
                    if lastFailure != nil { logger.notice("watchdog pings reach systemd again") }
                    lastFailure = nil
                } catch {
                    if error != lastFailure { logger.warning("watchdog ping failed: \(error)") }
                    lastFailure = error
                }
            } else {
                if wasHealthy { logger.error("health check failed; withholding watchdog pings so systemd restarts us") }
                wasHealthy = false
            }
            do {
                try await Task.sleep(until: deadline, clock: clock)
            } catch {
                return
            }
        }
    }

    // MARK: Helpers

    /// `STATUS=text` on one line: a newline would start another assignment (a device name could say `READY=1`).
    static func statusAssignment(_ text: String) -> String {
        "STATUS=" + String(text.map { $0.isNewline ? " " : $0 })
    }

    /// sd_watchdog_enabled(3): `WATCHDOG_USEC` a positive, finite count of microseconds, and
    /// `WATCHDOG_PID`, when set, this process.
    static func watchdogTimeout(in environment: [String: String], logger: Logger) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"] else { return nil }
        // 0 is "not set" and UInt64.max is systemd's USEC_INFINITY; both mean no timestamp.
        guard let microseconds = UInt64(text), microseconds > 0, microseconds <= UInt64(Int64.max) else {
            logger.warning("ignoring WATCHDOG_USEC '\(text)': not a positive number of microseconds")
            return nil
        }
        if let pidText = environment["WATCHDOG_PID"] {
            guard let pid = pid_t(pidText), pid > 0 else {
                logger.warning("ignoring the watchdog: WATCHDOG_PID '\(pidText)' is not a process id")
                return nil
            }
            guard pid == getpid() else {
                logger.debug("the watchdog belongs to process \(pid), not to us")
                return nil
            }
        }
        return .microseconds(Int64(microseconds))
    }

    /// Suspends until the current task is cancelled.
    static func waitForCancellation() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(86_400))
        }
    }
}
