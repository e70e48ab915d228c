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
}
