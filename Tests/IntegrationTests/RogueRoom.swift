import TestSupport

/// The rogue world's room: fake CPR bands advertising names built to break topics, JSON and logs (five in BlueZoo, as
/// many as an adapter has slots; three on the real stack), each on a peripheral adapter of its own, and one real belt
/// on the next. `RogueWorldTests` and `RogueAdoptionTests` run a gateway among them.
struct RogueRoom {
    /// The fakes' addresses.
    let fakes: [String]
    let beltAddress: String
    let beltID: String

    /// How many fakes a room of `kind` holds: the world needs one peripheral adapter more, for the belt.
    static func fakes(_ kind: BlueZWorld) -> Int { kind == .real ? 3 : 5 }

    /// Starts the fakes and the belt in `world`, made with `fakes(_:) + 1` peripheral adapters.
    static func start(in world: TestWorld) async throws -> RogueRoom {
        var fakes: [String] = []
        for index in 1...Self.fakes(world.kind) {
            let fake = try await world.startSimulator(
                ["cpr", "--name", RogueWorldTests.hostileNames[index - 1]], adapter: world.peripheralAdapter(index))
            fakes.append(try fake.simulatedAddress)
        }
        let belt = try await world.startSimulator(["belt"], adapter: world.peripheralAdapter(fakes.count + 1))
        return RogueRoom(fakes: fakes, beltAddress: try belt.simulatedAddress, beltID: try belt.simulatedID)
    }

    /// Once the gateway `test` has seen every fake and the belt, adopts the belt with a `connect` request, as the
    /// page's Connect button sends it, and waits until it is served (connected, its heading coming). One scan shows
    /// them all: a scan request each, still in progress, would have the `connect` refused (`rate_limited`, 4 at once).
    func adoptBelt(_ recorder: TopicRecorder) async throws {
        let scan = recorder.mark
        try recorder.publish("gatt2mqtt/test/request/scan", #"{"duration_s":30}"#)
        try await recorder.waitFor("gatt2mqtt/test/response/scan", after: scan)
        for address in fakes + [beltAddress] {
            try await recorder.waitFor("gatt2mqtt/test/scan", after: scan) {
                $0.payloadString?.contains(#""address":"\#(address)""#) == true
            }
        }
        let mark = recorder.mark
        try recorder.publish("gatt2mqtt/test/request/connect", #"{"address":"\#(beltAddress)"}"#)
        try await recorder.waitFor("gatt2mqtt/test/response/connect", after: mark) {
            $0.payloadString?.contains(#""ok":true"#) == true
        }
        try await recorder.waitFor("belt/\(beltID)/connection") { $0.payloadString == "connected" }
        try await recorder.waitFor("belt/\(beltID)/heading")
    }
}
