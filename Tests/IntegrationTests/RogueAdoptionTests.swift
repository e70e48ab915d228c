import Foundation
import TestSupport
import Testing

/// The rogue world turned on adoption (issue #56, break 1): any client of the broker may publish what looks like a
/// gateway's adoption list or a device's `info`. A gateway with its defaults (`auto_connect: adopted`, `fleet.enabled:
/// auto`), alone on its broker, must take neither as its own: fake CPR bands named in a forged `gatt2mqtt/evil/adopted`
/// get no slot and leave nothing retained, four forged lists of 300 addresses leave a join window room to adopt a real
/// band, and a forged `cpr/<id>/info` naming the gateway adopts nothing on its first start.
@Suite(.serialized)
struct RogueAdoptionTests {
    @Test(arguments: BlueZWorld.enabled)
    func fakesNamedInAForgedAdoptionListGetNoSlotAndLeaveNothingRetained(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind, peripheralAdapters: RogueRoom.fakes(kind) + 1) { world in
            let recorder = try await TopicRecorder(world: world)
            let room = try await RogueRoom.start(in: world)
            let (fakeAddresses, address) = (room.fakes, room.beltAddress)
            // One retained message from any client, naming a gateway nobody runs.
            let forged = Self.list(fakeAddresses, family: "cpr")
            try recorder.publish("gatt2mqtt/evil/adopted", forged, retain: true)
            let gateway = try await world.startBridge(extraArguments: ["--auto-connect", "adopted"])

            // And again while the gateway runs: the receive path reads in order, so the `devices` answer below comes
            // after this list was taken, if it was taken at all.
            try recorder.publish("gatt2mqtt/evil/adopted", forged, retain: true)
            try await room.adoptBelt(recorder)

            let figures = try await Self.figures(of: fakeAddresses, gateway: gateway, recorder: recorder, world: world)
            #expect(figures.adopted == 0, "fakes adopted: \(figures)")
            #expect(figures.sessions == 0, "slots the fakes took: \(figures)")
            #expect(figures.retained.isEmpty, "retained of the fakes: \(figures)")
            // The gateway's own list holds the belt it was asked to connect, and nothing of the forged one.
            #expect(figures.places == [address], "adoption places: \(figures)")
            #expect(!gateway.lines.contains { $0.text.contains("device adopted") && $0.text.contains("evil") })
            await recorder.stop()
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func fourForgedListsOf300AddressesLeaveAJoinWindowRoomToAdoptARealBand(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let recorder = try await TopicRecorder(world: world)
            let band = try await world.startSimulator(["cpr"])
            let (address, id) = (try band.simulatedAddress, try band.simulatedID)
            for list in 1...4 {
                let madeUp = (0..<300).map { String(format: "0E:00:%02X:00:%02X:%02X", list, $0 / 256, $0 % 256) }
                try recorder.publish("gatt2mqtt/evil-\(list)/adopted", Self.list(madeUp, family: "cpr"), retain: true)
            }
            _ = try await world.startBridge(extraArguments: ["--auto-connect", "adopted"])
            try await recorder.waitUntilSeen(address)

            let mark = recorder.mark
            try recorder.publish("gatt2mqtt/test/request/permit_join", #"{"duration_s":60}"#)
            try await recorder.waitFor("gatt2mqtt/test/response/permit_join", after: mark) {
                $0.payloadString?.contains(#""ok":true"#) == true
            }
            try await recorder.waitFor("cpr/\(id)/connection", after: mark) { $0.payloadString == "connected" }
            let adopted = try await recorder.waitFor("gatt2mqtt/test/adopted", after: mark) {
                $0.payloadString?.contains(address) == true
            }
            // Every place but the band's is free: none went to the forged lists.
            #expect(adopted.payloadString == Self.list([address], family: "cpr"))
            let closed = recorder.mark
            try recorder.publish("gatt2mqtt/test/request/permit_join", #"{"duration_s":0}"#)
            try await recorder.waitFor("gatt2mqtt/test/permit_join", after: closed) {
                $0.payloadString == #"{"open":false,"remaining_s":0}"#
            }
            await recorder.stop()
        }
    }

    @Test(arguments: BlueZWorld.enabled)
    func aForgedInfoNamingTheGatewayAdoptsNothingOnItsFirstStart(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind) { world in
            let recorder = try await TopicRecorder(world: world)
            let fake = try await world.startSimulator(["cpr", "--name", "CPR-FAKE-1"])
            let (address, id) = (try fake.simulatedAddress, try fake.simulatedID)
            // What an earlier run would have left, but no run of this gateway has: its state folder is empty.
            try recorder.publish(
                "cpr/\(id)/info", #"{"address":"\#(address)","family":"cpr","gateway":"test","name":"CPR-FAKE-1"}"#,
                retain: true)
            let gateway = try await world.startBridge(extraArguments: ["--auto-connect", "adopted"])
            // Seen means BlueZ runs, and BlueZ starts once the retained infos have been read.
            try await recorder.waitUntilSeen(address)

            let figures = try await Self.figures(
                of: [address], gateway: gateway, recorder: recorder, world: world, forged: ["cpr/\(id)/info"])
            #expect(figures.adopted == 0, "adopted: \(figures)")
            #expect(figures.sessions == 0, "slots taken: \(figures)")
            #expect(figures.places.isEmpty, "adoption places: \(figures)")
            #expect(figures.retained.isEmpty, "the forged info left nothing of the gateway's on the broker: \(figures)")
            #expect(!gateway.lines.contains { $0.text.contains("by=served before") })
            #expect(gateway.lines.contains { $0.text.contains("not adopted") && $0.text.contains("infos=1") })
            await recorder.stop()
        }
    }

    /// What the fakes got: how many the `devices` answer calls adopted, how many had a session, what the broker
    /// retains of them (their topics, or a payload naming them; the forged messages themselves left out), and the
    /// addresses in the gateway's own retained adoption list.
    private struct Figures: CustomStringConvertible {
        var adopted: Int
        var sessions: Int
        var retained: [String]
        var places: [String]
        var description: String {
            "adopted \(adopted), sessions \(sessions), retained \(retained.count) \(retained.prefix(5)), places \(places.count)"
        }
    }

    private static func figures(
        of fakes: [String], gateway: ManagedProcess, recorder: TopicRecorder, world: TestWorld,
        forged: Set<String> = ["gatt2mqtt/evil/adopted"]
    ) async throws -> Figures {
        let mark = recorder.mark
        try recorder.publish("gatt2mqtt/test/request/devices", "{}")
        let answer = try await recorder.waitFor("gatt2mqtt/test/response/devices", after: mark).payloadString ?? ""
        let snapshot = try await TopicRecorder(url: world.broker.url)
        let retained = try await snapshot.retainedAtSubscription()
        await snapshot.stop()
        var figures = Figures(adopted: 0, sessions: 0, retained: [], places: [])
        var left: Set<String> = []
        for fake in fakes {
            if answer.contains(#""address":"\#(fake)","adopted":true"#) { figures.adopted += 1 }
            if gateway.lines.contains(where: { $0.text.contains("device found") && $0.text.contains(fake) }) {
                figures.sessions += 1
            }
            let fakeID = fake.lowercased().replacingOccurrences(of: ":", with: "")
            left.formUnion(
                retained.filter { !forged.contains($0.key) && ($0.key.contains(fakeID) || $0.value.contains(fake)) }
                    .keys)
        }
        figures.retained = left.sorted()
        let list = retained["gatt2mqtt/test/adopted"] ?? "[]"
        figures.places = list.components(separatedBy: #""address":""#).dropFirst().map { String($0.prefix(17)) }
        return figures
    }

    /// An adoption list as a gateway publishes it.
    private static func list(_ addresses: [String], family: String) -> String {
        "[" + addresses.map { #"{"address":"\#($0)","family":"\#(family)"}"# }.joined(separator: ",") + "]"
    }
}
