import Locks
import Testing

@testable import Bridge

/// The lifecycle every session runs (connect and set up, stay until the link is lost, tear down, again), with the
/// link's steps as closures.
@Suite(.timeLimit(.minutes(1))) struct SessionLifecycleTests {
    /// Seen on the real stack under load: the `Connected: false` of the half-made link a failed attempt had taken
    /// down reached the session while its next attempt was setting up, and the new link, up and well, was ended at
    /// once as lost (a command sent in between was refused as `connecting`). BlueZ holding the link once the set-up
    /// is done says that report was of the link before.
    @Test func aLateDisconnectOfTheLinkBeforeDoesNotEndTheNextOne() async {
        let lifecycle = LateDisconnect(linkIsUp: true)
        let outcome = await lifecycle.log.firstLine(
            containingAnyOf: ["was of the link before; this one is up", "disconnected"])
        #expect(outcome.contains("this one is up"), "the new link was taken for lost: \(outcome)")
        await lifecycle.stop()
        #expect(lifecycle.connects.withLock { $0 } == 1)
        #expect(lifecycle.failures.withLock { $0 }.isEmpty)
    }

    /// The same report with BlueZ saying the link is down: this link dropped, and the session connects again.
    @Test func aDisconnectDuringTheSetUpOfALinkThatIsDownIsALoss() async {
        let lifecycle = LateDisconnect(linkIsUp: false)
        await lifecycle.log.waitForLine(containing: "reconnecting")
        await lifecycle.stop()
        #expect(lifecycle.failures.withLock { $0 } == ["link_lost"])
    }
}

/// A lifecycle whose first set-up hears BlueZ report `Connected: false`, with BlueZ then saying the link is up or
/// not; its connects counted and its failures' codes kept.
private final class LateDisconnect: Sendable {
    let log = RecordingLog()
    let loss = LinkLoss()
    let connects = Mutex(0)
    let failures = Mutex<[String]>([])
    private let running = Mutex<Task<Void, Never>?>(nil)

    init(linkIsUp: Bool) {
        let task = Task { [self] in
            await SessionLifecycle.run(
                logger: log.logger(), loss: loss,
                connect: {
                    let first = connects.withLock { count in
                        count += 1
                        return count == 1
                    }
                    if first { loss.disconnectReported() }
                },
                linkIsUp: { linkIsUp }, abandon: {}, tearDown: {},
                failed: { failure in failures.withLock { $0.append(failure.code.rawValue) } })
        }
        running.withLock { $0 = task }
    }

    /// Ends the lifecycle as a shutdown does, and returns once it has ended.
    func stop() async {
        let task = running.withLock { $0 }
        task?.cancel()
        loss.signal(.ended)
        await task?.value
    }
}
