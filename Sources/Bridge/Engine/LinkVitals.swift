#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What every connected device tells of its link besides its family's telemetry, once a minute so the broker's
/// traffic stays small: `last_seen`, retained (when the gateway last knew the device there: on connect, every
/// minute while connected, and when the link ends), and `rssi` (dBm as BlueZ last measured it) for the families
/// whose own telemetry does not report it (the CPR band does, every `cpr.signal_s`).
extension SessionCore {
    static let vitalsInterval = Duration.seconds(60)

    /// Reports now and every minute until the link ends (the connection's scope closes then).
    func startVitals() {
        connection.spawn("vitals") { [self] in
            while !Task.isCancelled {
                await reportVitals()
                try? await Task.sleep(for: Self.vitalsInterval)
            }
        }
    }

    /// The link ended: the moment it did is the last the gateway knew the device there.
    func linkEnded() { markSeen() }

    private func reportVitals() async {
        markSeen()
        // Nothing while BlueZ has no measurement (BlueZDevice.rssi leaves out 127, "not available").
        guard reportsSignal, let rssi = await link.current()?.rssi else { return }
        publish([Publication(topic: topic("rssi"), payload: String(rssi))])
    }

    private func markSeen() { publish([.state(topic("last_seen"), Self.timestamp(.now))]) }

    /// ISO 8601 in UTC to the second, as Home Assistant's timestamp sensors take it: `2026-01-31T12:00:00Z`.
    static func timestamp(_ date: Date) -> String { date.formatted(.iso8601) }
}
