import ServiceLifecycle

/// Ends the gateway when `request/restart` asks for it, once the request is answered: the group shuts down as for
/// SIGTERM (devices disconnected, `offline` said, the broker session closed), then `RestartRequested` ends the run,
/// which the daemon turns into exit status 75. The systemd unit starts it again on that status
/// (`RestartForceExitStatus=75`, and `SuccessExitStatus=75` so that a requested restart is not a failure); in a
/// container, the runtime's restart policy does (`--restart unless-stopped`).
struct RestartService: Service {
    let signal: RestartSignal

    func run() async throws {
        await cancelWhenGracefulShutdown { await signal.requested() }
        // A graceful shutdown ends the wait as well; only a request outside one restarts.
        guard !Task.isShuttingDownGracefully, !Task.isCancelled, signal.wasRequested else { return }
        throw RestartRequested()
    }
}

/// The gateway ended because a restart was requested over MQTT.
public struct RestartRequested: Error, CustomStringConvertible {
    /// The exit status that asks the supervisor to start the daemon again (sysexits' EX_TEMPFAIL).
    public static let exitStatus: Int32 = 75

    public var description: String { "restart requested (request/restart)" }
}
