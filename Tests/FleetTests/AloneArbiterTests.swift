import Fleet
import Testing

/// A gateway with no other gateway online (`LocalObservation.alone`, the default `fleet.enabled: auto`):
/// it behaves as one without a fleet, yet owns what it serves under a term, so a gateway that comes
/// online later finds the device owned instead of fighting for it.
struct AloneArbiterTests {
    typealias Event = TestFleet.Event

    @Test("alone, a gateway takes a device it has a slot for at once, with or without RSSI")
    func aloneTakesAtOnce() {
        for rssi in [-70, nil] {
            var gateway = TestGateway("gw-a", rssi: rssi)
            gateway.alone = true
            let first = gateway.step(at: .seconds(0)).decision
            #expect(
                first.change == .tookOwnership(term: 1) && first.action == .connect,
                "rssi \(rssi.map(String.init) ?? "nil")")
        }
        var full = TestGateway("gw-a", rssi: -40, freeSlots: 0)
        full.alone = true
        for second in 0..<600 { #expect(full.step(at: .seconds(Int64(second))).decision.change == nil) }
        #expect(full.arbiter.state == .candidate, "no slot, no device, alone or not")
    }

    @Test("alone, an owner keeps reconnecting its device however long the link stays down")
    func aloneKeepsItsDevice() {
        var gateway = TestGateway("gw-a", rssi: -70)
        gateway.alone = true
        gateway.followsActions = false
        gateway.step(at: .seconds(0))
        for second in 1...3600 {
            let decision = gateway.step(at: .seconds(Int64(second))).decision
            #expect(decision.change == nil && decision.action == .connect)
        }
        // Once another gateway is online, the rules apply in full: a link down for over the grace period ends.
        gateway.alone = false
        #expect(gateway.step(at: .seconds(3601)).decision.change == .linkLost)
    }

    @Test("a gateway that comes online beside a lone owner leaves the device to it, even 10 dB stronger")
    func aNewcomerFindsTheDeviceOwned() {
        var lone = TestGateway("gw-b", rssi: -70)
        lone.alone = true
        var fleet = TestFleet([lone, TestGateway("gw-a", rssi: -60, startedAt: .seconds(100))], starts: [0, 100])
        fleet.run(until: 100)
        #expect(fleet.events == [Event(second: 0, gateway: "gw-b", change: .tookOwnership(term: 1))])
        // gw-a's status arrives: gw-b is alone no more and publishes its claim; gw-a listens first.
        fleet["gw-b"].alone = false
        fleet.run(until: 1000)
        #expect(fleet.events.count == 1, "\(fleet.events)")
        #expect(fleet.owners == ["gw-b"] && fleet.mostOwnersAtOnce == 1)
    }

    @Test("two gateways alone at the same instant both take the device; once each sees the other, one keeps it")
    func twoLoneOwnersSettleOnOne() {
        var a = TestGateway("gw-a", rssi: -60)
        var b = TestGateway("gw-b", rssi: -60)
        (a.alone, b.alone) = (true, true)
        var fleet = TestFleet([a, b])
        fleet.run(until: 1)
        #expect(fleet.owners == ["gw-a", "gw-b"])
        (fleet["gw-a"].alone, fleet["gw-b"].alone) = (false, false)
        fleet.run(until: 120)
        #expect(fleet.owners == ["gw-a"], "equal terms: the smaller name keeps the device")
        #expect(fleet.events(of: "gw-b").map(\.change).contains(.lostConflict(to: "gw-a")))
    }
}
