import Foundation
import TestSupport
import Testing

/// The rogue world: a gateway with its defaults in a room full of strangers. Fake CPR bands (five in BlueZoo, as many
/// as an adapter has slots; three on the real stack) advertise with names built to break topics, JSON and logs,
/// beside one real belt. The belt is adopted by a `connect` request, as the page's Connect button sends it, and is
/// served; the fakes are seen but get no slot, no topic, no Home Assistant config and nothing retained, before and
/// after the gateway restarts; every line the gateway logs is one entry.
@Suite(.serialized)
struct RogueWorldTests {
    /// Names a stranger may advertise: topic wildcards and separators, JSON and HTML metacharacters (the CPR
    /// simulator takes printable ASCII; control characters in names are `LogEscapingEndToEndTests`').
    static let hostileNames = [#"CPR-"}],"x":{"#, "CPR-+/#/../", "CPR-<script>", #"CPR-\u0000%n"#, "CPR-FAKE-5"]

    @Test(arguments: BlueZWorld.enabled)
    func fakesGetNoSlotAndLeaveNothingRetainedWhileTheAdoptedBeltIsServed(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind, peripheralAdapters: RogueRoom.fakes(kind) + 1) { world in
            let recorder = try await TopicRecorder(world: world)
            let room = try await RogueRoom.start(in: world)
            let (fakeAddresses, id) = (room.fakes, room.beltID)
            // The gateway as installed: `auto_connect` left at its default, `adopted`.
            let gateway = try await world.startBridge(extraArguments: ["--auto-connect", "adopted"])

            try await room.adoptBelt(recorder)

            try await expectStrangers(fakeAddresses, recorder: recorder, broker: world.broker.url)
            // Restarted, the gateway serves the belt it adopted (kept in its state directory), and still no fake.
            _ = await gateway.terminate(grace: .seconds(10))
            let restart = recorder.mark
            let again = try await world.startBridge(extraArguments: ["--auto-connect", "adopted"])
            try await recorder.waitFor("belt/\(id)/connection", after: restart) { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/\(id)/heading", after: restart)
            try await expectStrangers(fakeAddresses, recorder: recorder, broker: world.broker.url)

            for process in [gateway, again] {
                let split = process.lines.map(\.text).filter { !Self.isLogEntry($0) }
                #expect(split.isEmpty, "every line the gateway wrote is one log entry: \(split.prefix(5))")
                #expect(!process.lines.contains { $0.text.contains("no free connection slot") })
                for fake in fakeAddresses {
                    #expect(
                        !process.lines.contains { $0.text.contains("device found") && $0.text.contains(fake) },
                        "no session for \(fake)")
                }
            }
            await recorder.stop()
        }
    }

    /// The fakes are listed as seen strangers, and nothing of them is retained on the broker.
    private func expectStrangers(_ fakes: [String], recorder: TopicRecorder, broker: String) async throws {
        let mark = recorder.mark
        try recorder.publish("gatt2mqtt/test/request/devices", "{}")
        let answer = try await recorder.waitFor("gatt2mqtt/test/response/devices", after: mark).payloadString ?? ""
        let snapshot = try await TopicRecorder(url: broker)
        let retained = try await snapshot.retainedAtSubscription()
        await snapshot.stop()
        for fake in fakes {
            #expect(answer.contains(#""address":"\#(fake)","adopted":false"#), "\(fake) seen, not adopted: \(answer)")
            let fakeID = fake.lowercased().replacingOccurrences(of: ":", with: "")
            let left = retained.filter { $0.key.contains(fakeID) || $0.value.contains(fake) }
            #expect(left.isEmpty, "nothing retained of \(fake): \(left)")
        }
        #expect(
            retained.keys.filter { $0.hasPrefix("cpr/") }.isEmpty, "no CPR band topic at all: \(retained.keys.sorted())"
        )
    }

    /// `2026-11-28T03:05:06+0000 info gatt2mqtt: …`: the daemon's stream log format.
    static func isLogEntry(_ line: String) -> Bool {
        line.range(
            of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} (trace|debug|info|notice|warning|error|critical) "#,
            options: .regularExpression) != nil
    }
}
