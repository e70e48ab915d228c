import Fleet
import Testing

@testable import Bridge

struct FleetCoordinatorTests {
    /// A coordinator under `fleet.enabled: true` unless told otherwise.
    func coordinator(_ name: String, joining: FleetOptions.Joining = .always) -> FleetCoordinator {
        var options = FleetOptions()
        options.joining = joining
        return FleetCoordinator(gateway: name, incarnation: 1, options: options)
    }

    func claim(_ gateway: String, _ state: ClaimState, term: UInt64 = 1) -> Claim {
        Claim(
            gateway: gateway, device: "belt/aa", incarnation: 1, sequence: 1, term: term, state: state, rssi: -60,
            freeSlots: 4)
    }

    /// One `not_connected` fleet-wide: the first by name of the gateways heard lately answers.
    @Test func theFirstGatewayByNameAnswersForADeviceNobodyOwns() {
        let b = coordinator("gw-b")
        #expect(b.answersForUnowned(), "alone, it answers")
        b.heard("gw-c")
        #expect(b.answersForUnowned())
        b.heard("gw-a")
        #expect(!b.answersForUnowned(), "gw-a answers")
        b.heard("gw-b")
        #expect(!b.answersForUnowned(), "its own heartbeat changes nothing")
    }

    /// Claims for devices nobody here has heard of fill the table only to its limit; a will ends the sender's
    /// claims at once, and makes room again.
    @Test func strangersClaimsAreBoundedAndAWillMakesRoom() {
        let a = coordinator("gw-a")
        var taken = 0
        for index in 0..<(FleetCoordinator.deviceLimit + 100) {
            let device = Claim(
                gateway: "gw-z", device: "belt/\(index)", incarnation: 1, sequence: UInt64(index + 1), term: 1,
                state: .owner,
                rssi: -60, freeSlots: 4)
            if a.receive(device) { taken += 1 }
        }
        #expect(taken == FleetCoordinator.deviceLimit, "the rest were dropped")
        #expect(a.otherOwner("belt/0") == "gw-z")
        a.peerLeft("gw-z")
        #expect(a.otherOwner("belt/0") == nil, "its will ended its claims")
        #expect(a.receive(claim("gw-b", .candidate)), "room again: nobody claims the old devices any more")
    }

    /// Devices seen over the air (anyone may advertise a family's name from ever new addresses) fill the arbiters,
    /// smoothers and publishing times only to the device limit: devices this gateway neither owns nor hears claims of
    /// make room.
    @Test func devicesSeenOverTheAirAreBoundedToo() {
        let a = coordinator("gw-a")
        for index in 0..<(FleetCoordinator.deviceLimit + 100) {
            _ = a.step("belt/\(index)", rssi: -70, freeSlots: 4, linkUp: false, brokerConnected: true)
        }
        let sizes = a.deviceTableSizes
        #expect(sizes.arbiters <= FleetCoordinator.deviceLimit)
        #expect(sizes.smoothers <= FleetCoordinator.deviceLimit && sizes.lastPublished <= FleetCoordinator.deviceLimit)
        _ = a.step("belt/latest", rssi: -70, freeSlots: 4, linkUp: false, brokerConnected: true)
        #expect(a.deviceTableSizes.arbiters <= FleetCoordinator.deviceLimit, "still bounded: \(a.deviceTableSizes)")
    }

    @Test func anotherGatewaysLiveOwnerClaimNamesTheOwner() {
        let a = coordinator("gw-a")
        #expect(a.otherOwner("belt/aa") == nil)
        a.receive(claim("gw-b", .candidate))
        #expect(a.otherOwner("belt/aa") == nil)
        var owner = claim("gw-b", .owner)
        owner.sequence = 2
        a.receive(owner)
        #expect(a.otherOwner("belt/aa") == "gw-b")
        #expect(!a.isOwner("belt/aa"))
        #expect(a.answersForUnowned(), "gw-a is the first by name of those heard; the owner check comes before this")
    }

    /// A gateway that has just started takes nothing before a lease and the settle period have passed,
    /// but says at once what it sees.
    @Test func aNewGatewayClaimsAsACandidateFirst() {
        let a = coordinator("gw-a")
        let step = a.step("belt/aa", rssi: -50, freeSlots: 5, linkUp: false, brokerConnected: true)
        #expect(step.claim?.state == .candidate)
        #expect(step.claim?.rssi == -50)
        #expect(step.decision.action == .none)
        #expect(!a.isOwner("belt/aa"))
    }

    /// `fleet.enabled: auto`: nothing is taken or said before the retained statuses are in; alone, a wanted device
    /// is taken at the first step and no claim goes out; once another gateway is online the claim goes out at the
    /// next step, and the gateway that knows the device owned stays silent about it.
    @Test func aGatewayAloneTakesAtOnceAndClaimsOnceAnotherIsOnline() {
        let a = coordinator("gw-a", joining: .whenOthersOnline)
        #expect(a.presence == .unknown)
        var step = a.step("belt/aa", rssi: nil, freeSlots: 5, linkUp: false, brokerConnected: true)
        #expect(step.claim == nil && !a.isOwner("belt/aa") && !a.mayConnect("belt/aa"), "the statuses are not in yet")
        a.status(of: "gw-b", online: false)
        a.ownStatusArrived()
        #expect(a.presence == .alone && a.mayConnect("belt/aa"))
        step = a.step("belt/aa", rssi: nil, freeSlots: 5, linkUp: false, brokerConnected: true)
        #expect(step.decision.change == .tookOwnership(term: 1) && step.decision.action == .connect)
        #expect(step.claim == nil && !step.listening, "alone: nothing to tell, nothing withheld")
        a.status(of: "gw-b", online: true)
        #expect(a.presence == .inFleet)
        step = a.step("belt/aa", rssi: nil, freeSlots: 5, linkUp: true, brokerConnected: true)
        #expect(step.claim?.state == .owner && step.claim?.term == 1)
        a.status(of: "gw-b", online: false)
        #expect(a.presence == .alone, "its goodbye or will")
    }

    /// A broker that never delivers the statuses: given up on, the gateway is alone and takes at once, and a gateway
    /// heard later still puts it in the fleet.
    @Test func statusesThatNeverComeLeaveTheGatewayAloneNotWaiting() {
        let a = coordinator("gw-a", joining: .whenOthersOnline)
        #expect(!a.mayConnect("belt/aa"))
        a.statusesUnavailable()
        #expect(a.presence == .alone && a.mayConnect("belt/aa"))
        let step = a.step("belt/aa", rssi: nil, freeSlots: 5, linkUp: false, brokerConnected: true)
        #expect(step.decision.action == .connect)
        a.heard("gw-b")
        #expect(a.presence == .inFleet)
    }

    /// A heartbeat or a claim is a gateway online, whatever statuses were missed.
    @Test func aGatewayHeardIsOnline() {
        let a = coordinator("gw-a", joining: .whenOthersOnline)
        a.ownStatusArrived()
        a.heard("gw-c")
        #expect(a.presence == .inFleet)
        #expect(coordinator("gw-a").presence == .inFleet, "fleet.enabled: true is always in the fleet")
    }

    /// Statuses and heartbeats from names nobody runs fill their tables only to the device table's limit.
    @Test func strangersStatusesAndHeartbeatsAreBounded() {
        let a = coordinator("gw-a", joining: .whenOthersOnline)
        a.ownStatusArrived()
        for index in 0..<(FleetCoordinator.deviceLimit + 10) { a.status(of: "gw-\(index)", online: false) }
        #expect(a.presence == .alone, "offline statuses make nobody online")
        a.status(of: "gw-new", online: true)
        #expect(a.presence == .alone, "the table is full of fresh statuses: a new one is dropped")
        let b = coordinator("gw-b")
        for index in 0..<(FleetCoordinator.deviceLimit + 10) { b.heard("gw-\(index)") }
        #expect(!b.answersForUnowned(), "gw-0 and others before gw-b by name were heard")
        #expect(a.strangerTableSizes.statuses == FleetCoordinator.deviceLimit)
        #expect(b.strangerTableSizes.heard == FleetCoordinator.deviceLimit)
    }
}
