import Testing

@testable import Bridge

struct GatewayStateTests {
    /// Spoofed advertisements of a family's name from ever new addresses fill the tables keyed by address only to a
    /// limit; what users asked for (a `connect`, a `disconnect`) is kept.
    @Test func tablesKeyedByAdvertisingAddressesAreBounded() {
        var state = Bridge.GatewayState()
        let limit = Bridge.GatewayState.strangerLimit
        for index in 0..<limit {
            let address = "AA:BB:CC:00:\(String(format: "%02X", index / 256)):\(String(format: "%02X", index % 256))"
            state.recognised[address] = .belt
            state.firstSeen[address] = .now
        }
        state.requested["AA:BB:CC:00:00:01"] = .some(.belt)
        state.released.insert("AA:BB:CC:00:00:02")
        state.forgetStrangers()
        #expect(Set(state.recognised.keys) == ["AA:BB:CC:00:00:01", "AA:BB:CC:00:00:02"])
        #expect(Set(state.firstSeen.keys) == ["AA:BB:CC:00:00:01", "AA:BB:CC:00:00:02"])
        state.forgetStrangers()
        #expect(state.recognised.count == 2, "below the limit nothing is forgotten")
    }

    /// A device's session is found by `<family>/<id>` as well as by its object path, until it is removed.
    @Test func sessionsAreFoundByDeviceAsWellAsByPath() {
        var state = Bridge.GatewayState()
        let belt = running(IdleSession(id: "a", family: .belt))
        let grip = running(IdleSession(id: "a", family: .grip))
        state.add(belt, at: "/org/bluez/hci0/dev_A")
        state.add(grip, at: "/org/bluez/hci1/dev_B")
        #expect(state.session(family: .belt, id: "a")?.address == "/org/bluez/hci0/dev_A")
        #expect(state.session(family: .grip, id: "a")?.address == "/org/bluez/hci1/dev_B")
        #expect(state.session(family: .cpr, id: "a") == nil)
        #expect(state.removeSession(at: "/org/bluez/hci0/dev_A")?.session.family == .belt)
        #expect(state.session(family: .belt, id: "a") == nil)
        #expect(state.removeAllSessions().count == 1)
        #expect(state.session(family: .grip, id: "a") == nil && state.sessions.isEmpty)
    }

    /// A session that does nothing, for the tables.
    private actor IdleSession: DeviceSession {
        nonisolated let id: String
        nonisolated let family: DeviceFamily
        init(id: String, family: DeviceFamily) { (self.id, self.family) = (id, family) }
        func run() async {}
        func linkDidDrop() {}
        func shutDown() async {}
        func execute(_ command: ParsedCommand) async throws(CommandError) -> [String: JSONValue] { [:] }
    }

    /// Its table entry; the address field holds the path it is added at, so that a lookup shows which entry it found.
    private func running(_ session: IdleSession) -> Bridge.RunningSession {
        let path = session.family == .belt ? "/org/bluez/hci0/dev_A" : "/org/bluez/hci1/dev_B"
        return Bridge.RunningSession(session: session, address: path, adapter: "hci0", task: Task {}, commands: AsyncStream.makeStream().continuation)
    }
}
