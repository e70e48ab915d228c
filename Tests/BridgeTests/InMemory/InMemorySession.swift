import Logging

@testable import Bridge

/// A session of family `family` on an in-memory link, publishing to a `RecordingSink`: its context, its
/// run until it says `connected`, and its end.
struct InMemorySession<Session: DeviceSession> {
    let session: Session
    private let running: Task<Void, Never>

    /// What a session of `driver`'s family gets: `link` as its device, `sink` as its broker.
    static func context(
        link: InMemoryLink, sink: RecordingSink, id: String, driver: any FamilyDriver,
        metrics: DeviceMetrics = DeviceMetrics()
    ) -> SessionContext {
        SessionContext(
            link: { _ in link },
            publisher: BrokerPublisher(client: sink, topics: TopicMap(gateway: "test"), logger: Logger(label: "test")),
            logger: Logger(label: "test"), gateway: "test", id: id, liveStateLeaves: driver.liveStateLeaves,
            metrics: metrics)
    }

    /// Runs `session` and returns once it has published `connected`.
    static func connected(_ session: Session, sink: RecordingSink) async -> InMemorySession {
        let running = Task { await session.run() }
        await sink.next(on: "\(session.family.rawValue)/\(session.id)/connection") { $0 == "connected" }
        return InMemorySession(session: session, running: running)
    }

    /// Shuts the session down as the bridge does at exit, and waits for its run to end.
    func end() async {
        await session.shutDown()
        running.cancel()
        await running.value
    }
}
