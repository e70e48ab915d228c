/// What one relay achieved in one configuration.
struct PhaseFigures: Codable, Sendable {
    var relay: String
    /// Notifications the devices sent while the relay was subscribed (up to the end of the window).
    var sent: Int
    /// Of those, how many arrived (matched by device and sequence).
    var received: Int
    var lost: Int { sent - received }
    /// Device send → arrival at the watcher.
    var notificationLatency: LatencySummary
    /// Arrivals per second over the measuring window, all devices together.
    var receivedPerSecond: Double
    /// Command sent → the device's write, one command at a time per device.
    var commandLatency: LatencySummary
    /// CPU time of the relay's process per 1 000 force messages delivered in the window, in ms.
    var cpuMillisecondsPer1000: Double?
    /// Time the relay's threads waited for a core (ready, not running) per 1 000 messages, in ms.
    var waitMillisecondsPer1000: Double? = nil
    /// The relay process's CPU time over the window as a share of one core, in percent.
    var relayCorePercent: Double? = nil
    /// All cores' use over the window (the world, the benchmark and the relay), in percent.
    var machineBusyPercent: Double? = nil
    /// Resident memory of the relay's process at the end of the window.
    var residentKilobytes: Int?
    /// Of that, the pages no other process shares.
    var anonymousKilobytes: Int? = nil
    /// Device send → the same signal at a passive listener on the bus, during this relay's phase.
    var busLatency: LatencySummary? = nil
    /// User-space instructions (callgrind) per force message delivered in the window, where counted.
    var instructionsPerMessage: Double? = nil
    /// Of those, the notification path's (socket read → decode → publish), where it can be told apart.
    var notificationPathInstructionsPerMessage: Double? = nil
}
