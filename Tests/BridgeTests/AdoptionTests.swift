import Foundation
import MQTT
import TestSupport
import Testing

@testable import Bridge

/// Adoption (`auto_connect: adopted`, the default), whole but in memory: a device that only advertises a family's
/// name is seen but gets no slot and leaves nothing retained; a join window, a `connect` request or the allow list
/// adopts it; adoptions outlive the gateway in its state directory, an upgrade adopts what the earlier version
/// served, and a fleet's gateways agree. The rogue world on real BlueZ is `RogueWorldTests`.
@Suite(.timeLimit(.minutes(1))) struct AdoptionTests {
    static func adopting(_ folder: String? = nil) -> (inout BridgeConfiguration) -> Void {
        { configuration in
            configuration.autoConnect = .adopted([])
            configuration.stateDirectory = folder
        }
    }

    /// Adopting, with its state in `folder` and a fleet (`auto`, as by default) whose incarnation file is there too:
    /// the file an earlier start leaves, which tells an upgrade from a fresh install (`EarlierRun`).
    private static func adoptingWithState(_ folder: String, incarnation: String = "fleet-incarnation") -> (
        inout BridgeConfiguration
    ) -> Void {
        { configuration in
            adopting(folder)(&configuration)
            var options = FleetOptions()
            options.incarnationFile = folder + "/" + incarnation
            options.incarnationFileChosen = true
            configuration.fleet = options
        }
    }

    private func request(_ gateway: InMemoryGateway, _ name: String, _ payload: String, to gatewayName: String = "test")
        async throws -> String
    {
        let mark = gateway.probe.mark
        try gateway.publish("gatt2mqtt/\(gatewayName)/request/\(name)", payload)
        return await gateway.probe.next(on: "gatt2mqtt/\(gatewayName)/response/\(name)", after: mark).payloadString
            ?? ""
    }

    private func temporaryFolder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("g2m-adoption-\(UUID().uuidString.prefix(8))")
            .path
    }

    @Test func aStrangerIsSeenButNeitherConnectedNorAnnouncedNorRetained() async throws {
        try await InMemoryGateway.with(configure: Self.adopting()) { gateway in
            let stranger = InMemoryDevices.cprBand()
            let id = DeviceID.from(address: stranger.device.address)
            gateway.central.add(stranger)
            let answer = try await request(gateway, "devices", "{}")
            #expect(
                answer.contains(#""address":"\#(stranger.device.address)","adopted":false"#),
                "listed as seen: \(answer)")
            let retainedList = gateway.broker.retained("gatt2mqtt/test/devices")?.payloadString ?? ""
            #expect(!retainedList.contains(stranger.device.address), "\(retainedList)")
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == "[]")
            #expect(
                gateway.broker.retained("gatt2mqtt/test/permit_join")?.payloadString
                    == #"{"open":false,"remaining_s":0}"#)
            #expect(gateway.broker.retainedTopics("homeassistant/device/test_cpr_\(id)/config").isEmpty)
            #expect(gateway.broker.retainedTopics("cpr/\(id)/+").isEmpty)
            #expect(await !stranger.isConnected)
        }
    }

    /// A join window adopts the devices in range and those that appear while it is open, then closes by itself;
    /// a device that appears afterwards stays a stranger.
    @Test func aJoinWindowAdoptsWhatItSeesAndClosesByItself() async throws {
        try await InMemoryGateway.with(configure: Self.adopting()) { gateway in
            let band = InMemoryDevices.cprBand()
            let id = DeviceID.from(address: band.device.address)
            gateway.central.add(band)
            let closed = gateway.probe.mark
            #expect(
                try await request(gateway, "permit_join", #"{"duration_s":1}"#)
                    == #"{"data":{"open":true,"remaining_s":1},"ok":true,"request":"permit_join"}"#)
            await gateway.probe.next(on: "cpr/\(id)/connection") { $0 == "connected" }
            #expect(
                gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString
                    == #"[{"address":"\#(band.device.address)","family":"cpr"}]"#)
            #expect(!gateway.broker.retainedTopics("homeassistant/device/test_cpr_\(id)/config").isEmpty)
            await gateway.probe.next(on: "gatt2mqtt/test/permit_join", after: closed) {
                $0 == #"{"open":false,"remaining_s":0}"#
            }

            let late = InMemoryDevices.belt()
            gateway.central.add(late)
            let answer = try await request(gateway, "devices", "{}")
            #expect(answer.contains(#""address":"\#(late.device.address)","adopted":false"#), "\(answer)")
            #expect(await !late.isConnected)
        }
    }

    /// A join window adopts `JoinWindow.adoptionLimit` devices at most, then closes itself and says so: a crowded
    /// room cannot fill the gateway's places through one window.
    @Test func aJoinWindowAdoptsItsMostThenCloses() async throws {
        try await InMemoryGateway.with(configure: Self.adopting()) { gateway in
            for index in 0...JoinWindow.adoptionLimit {
                gateway.central.add(
                    InMemoryDevices.cprBand(
                        address: String(format: "00:22:00:00:%02X:%02X", index / 256, index % 256),
                        name: "CPR-Band \(index)"))
            }
            let opened = gateway.probe.mark
            _ = try await request(gateway, "permit_join", #"{"duration_s":600}"#)
            await gateway.probe.next(on: "gatt2mqtt/test/permit_join", after: opened) {
                $0 == #"{"open":false,"remaining_s":0}"#
            }
            #expect(gateway.log.lines.contains { $0.contains("join window closed: it adopted the most") })
            let list = gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString ?? ""
            #expect(list.components(separatedBy: #""address""#).count - 1 == JoinWindow.adoptionLimit)
        }
    }

    /// A `connect` request adopts (the live page's Connect sends one); `forget` takes the adoption back.
    @Test func aConnectRequestAdoptsAndForgetTakesItBack() async throws {
        try await InMemoryGateway.with(configure: Self.adopting()) { gateway in
            let belt = InMemoryDevices.belt()
            let address = belt.device.address
            gateway.central.add(belt)
            _ = try await request(gateway, "devices", "{}")
            let answer = try await request(gateway, "connect", #"{"address":"\#(address)"}"#)
            #expect(answer.contains(#""ok":true"#), "\(answer)")
            await gateway.probe.next(on: "belt/\(DeviceID.from(address: address))/connection") { $0 == "connected" }
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString?.contains(address) == true)
            #expect(try await request(gateway, "forget", #"{"address":"\#(address)"}"#).contains(#""ok":true"#))
            #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == "[]")
        }
    }

    /// Adoptions are kept in the state directory: a gateway started again connects the device without a request, and
    /// a join window does not outlive its gateway.
    @Test func adoptionsOutliveTheGatewayInItsStateDirectory() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let belt = InMemoryDevices.belt()
        try await InMemoryWorld.with { world in
            let first = try await InMemoryGateway.start(in: world, configure: Self.adopting(folder))
            try await withCleanUp({ await first.stop() }) {
                _ = try await request(first, "permit_join", "{}")
                await first.connect(belt, family: "belt")
            }
        }
        let kept = try String(contentsOfFile: folder + "/adopted.json", encoding: .utf8)
        #expect(kept == #"[{"address":"\#(belt.device.address)","family":"belt"}]"#)
        try await InMemoryWorld.with { world in
            let again = try await InMemoryGateway.start(in: world, configure: Self.adopting(folder))
            try await withCleanUp({ await again.stop() }) {
                #expect(
                    again.broker.retained("gatt2mqtt/test/permit_join")?.payloadString
                        == #"{"open":false,"remaining_s":0}"#)
                await again.connect(belt, family: "belt")
                #expect(again.broker.retained("gatt2mqtt/test/adopted")?.payloadString == kept)
            }
        }
    }

    /// The first start of this version on a broker where 0.9.0 served a device (its retained `info` names this
    /// gateway) adopts it: nobody's setup stops working. 0.9.0 left its fleet incarnation file in the state directory,
    /// and no adoptions file. A stranger next to it stays one.
    @Test func anUpgradeAdoptsWhatTheEarlierVersionServed() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try "41\n".write(toFile: folder + "/fleet-incarnation", atomically: true, encoding: .utf8)
        try await InMemoryWorld.with { world in
            let served = InMemoryDevices.belt()
            let id = DeviceID.from(address: served.device.address)
            try world.publish(
                "belt/\(id)/info",
                #"{"address":"\#(served.device.address)","family":"belt","firmware":52,"gateway":"test","name":"naviGuertel 01"}"#,
                retain: true)
            // Another gateway's device is not this one's to adopt.
            let elsewhere = InMemoryDevices.belt(address: "00:11:22:33:44:77", name: "naviGuertel 02")
            try world.publish(
                "belt/001122334477/info", #"{"address":"00:11:22:33:44:77","family":"belt","gateway":"other"}"#,
                retain: true)
            try world.publish("gatt2mqtt/test/status", "offline", retain: true)
            let gateway = try await InMemoryGateway.start(in: world, configure: Self.adoptingWithState(folder))
            try await withCleanUp({ await gateway.stop() }) {
                gateway.central.add(elsewhere)
                await gateway.connect(served, family: "belt")
                #expect(
                    gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString
                        == #"[{"address":"\#(served.device.address)","family":"belt"}]"#)
                #expect(await !elsewhere.isConnected)
            }
            #expect(
                try String(contentsOfFile: folder + "/adopted.json", encoding: .utf8).contains(served.device.address))
        }
    }

    /// Issue #56: a retained `info` naming the gateway is anyone's to publish. On a first start (no incarnation file, no
    /// adoptions file: a fresh install) it adopts nothing; the gateway says how many it left, and writes its adoptions
    /// file, so that the next start does not take the broker's word either.
    @Test func aForgedInfoAdoptsNothingOnAFirstStart() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let band = InMemoryDevices.cprBand()
        let id = DeviceID.from(address: band.device.address)
        try await InMemoryWorld.with { world in
            try world.publish(
                "cpr/\(id)/info", #"{"address":"\#(band.device.address)","family":"cpr","gateway":"test"}"#,
                retain: true)
            for start in 1...2 {
                // The incarnation file stays locked while this process runs: the second start (as after an earlier
                // run) gets a file of its own.
                if start == 2 { try "9\n".write(toFile: folder + "/incarnation-2", atomically: true, encoding: .utf8) }
                let gateway = try await InMemoryGateway.start(
                    in: world,
                    configure: Self.adoptingWithState(
                        folder, incarnation: start == 1 ? "fleet-incarnation" : "incarnation-2"))
                try await withCleanUp({ await gateway.stop() }) {
                    gateway.central.add(band)
                    let answer = try await request(gateway, "devices", "{}")
                    #expect(answer.contains(#""address":"\#(band.device.address)","adopted":false"#), "\(answer)")
                    #expect(gateway.broker.retained("gatt2mqtt/test/adopted")?.payloadString == "[]")
                    #expect(!gateway.log.lines.contains { $0.contains("served before") })
                    let told = gateway.log.lines.filter { $0.contains("their devices are not adopted") }
                    // The second start has its adoptions file: the broker's word is not asked for at all.
                    #expect(told.count == (start == 1 ? 1 : 0), "\(told)")
                    #expect(told.allSatisfy { $0.contains("infos=1") }, "\(told)")
                }
                #expect(await !band.isConnected)
                #expect(try String(contentsOfFile: folder + "/adopted.json", encoding: .utf8) == "[]")
            }
        }
    }

    /// In a fleet, one gateway's adoption counts for all: the other follows its list once it knows the gateway (and
    /// would take the device over), without taking a place of its own for it. A `forget` on either is a forget on all:
    /// here on gw-b, which did not adopt the belt (the page of any gateway may send it), and gw-a forgets it too.
    @Test func aFleetAgreesOnAdoption() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try await InMemoryWorld.with { world in
            let a = try await InMemoryGateway.start(
                "gw-a", in: world, adapters: ["hci0"], configure: Self.fleetMember(folder, "gw-a"))
            let b = try await InMemoryGateway.start(
                "gw-b", in: world, adapters: ["hci1"], configure: Self.fleetMember(folder, "gw-b"))
            try await withCleanUp({
                await a.stop()
                await b.stop()
            }) {
                let belt = InMemoryDevices.belt()
                let address = belt.device.address
                a.central.add(belt, on: "hci0", rssi: -50)
                b.central.add(belt, on: "hci1", rssi: -80)
                _ = try await request(a, "devices", "{}", to: "gw-a")
                #expect(
                    try await request(a, "connect", #"{"address":"\#(address)"}"#, to: "gw-a").contains(#""ok":true"#))
                await b.log.waitForLine(
                    containing: "device adopted by another gateway device=\(address) family=belt gateway=gw-a")
                let answer = try await request(b, "devices", "{}", to: "gw-b")
                #expect(answer.contains(#""address":"\#(address)","adopted":true"#), "\(answer)")
                // Counted, not taken: gw-b's places stay free.
                #expect(b.broker.retained("gatt2mqtt/gw-b/adopted")?.payloadString == "[]")
                #expect(b.log.lines.filter { $0.contains("device adopted") }.count == 1, "logged once, with its source")

                let forgot = world.probe.mark
                #expect(
                    try await request(b, "forget", #"{"address":"\#(address)"}"#, to: "gw-b").contains(#""ok":true"#))
                await world.probe.next(on: "gatt2mqtt/gw-a/adopted", after: forgot) { $0 == "[]" }
                await b.log.waitForLine(containing: "device no longer adopted by another gateway device=\(address)")
                #expect(
                    a.log.lines.contains { $0.contains("device no longer adopted by=gateway gw-b device=\(address)") })
                #expect(b.broker.retained("gatt2mqtt/gw-b/adopted")?.payloadString == "[]")
            }
        }
    }

    /// A gateway of a fleet (`fleet.enabled: auto`, refresh 1 s) that adopts, with its state under `folder`.
    static func fleetMember(_ folder: String, _ name: String) -> (inout BridgeConfiguration) -> Void {
        { configuration in
            adopting("\(folder)/\(name)")(&configuration)
            var options = FleetOptions()
            options.refreshInterval = .seconds(1)
            options.incarnationFile = "\(folder)/\(name)/incarnation"
            options.incarnationFileChosen = true
            configuration.fleet = options
        }
    }

    @Test func theListKeepsWellFormedEntriesUpToItsLimit() throws {
        let text =
            #"[{"address":"aa:bb:cc:dd:ee:01","family":"belt"},{"address":"nope","family":"belt"},{"address":"AA:BB:CC:DD:EE:02","family":"toaster"},7,{"address":"AA:BB:CC:DD:EE:03","family":"cpr"}]"#
        let list = try #require(AdoptionList.parse(Array(text.utf8)))
        #expect(
            list.json.text
                == #"[{"address":"AA:BB:CC:DD:EE:01","family":"belt"},{"address":"AA:BB:CC:DD:EE:03","family":"cpr"}]"#)
        #expect(AdoptionList.parse(Array(#"{"address":"AA:BB:CC:DD:EE:01"}"#.utf8)) == nil)

        var full = AdoptionList()
        for index in 0..<AdoptionList.limit {
            full.adopt(String(format: "00:00:00:00:%02X:%02X", index / 256, index % 256), as: .belt)
        }
        #expect(full.count == AdoptionList.limit)
        let overflowing = full.adopt("AA:AA:AA:AA:AA:AA", as: .belt)
        #expect(!overflowing, "full")
        let changedFamily = full.adopt("00:00:00:00:00:01", as: .cpr)
        #expect(changedFamily, "a known device may change family")
        #expect(full.count == AdoptionList.limit)
    }

    @Test func aJoinWindowIsBoundedAndCountsDown() {
        let now = ContinuousClock.now
        var window = JoinWindow()
        #expect(!window.isOpen(at: now))
        window.open(for: 100_000, at: now)
        #expect(window.remainingSeconds(at: now) == JoinWindow.longest)
        #expect(window.isOpen(at: now + .seconds(JoinWindow.longest)), "until the devices in range are considered")
        window.inRangeConsidered()
        #expect(window.isOpen(at: now + .seconds(JoinWindow.longest - 1)))
        #expect(!window.isOpen(at: now + .seconds(JoinWindow.longest)))
        window.open(for: 10, at: now)
        #expect(window.remainingSeconds(at: now + .milliseconds(9_500)) == 1)
        window.open(for: 0, at: now)
        #expect(!window.isOpen(at: now))

        // A window adopts its most, then closes; a new one starts counting again.
        window.open(for: 10, at: now)
        let admitted = (0...JoinWindow.adoptionLimit).map { _ in window.admitAdoption() }
        #expect(admitted == Array(repeating: true, count: JoinWindow.adoptionLimit) + [false])
        #expect(!window.isOpen(at: now))
        window.open(for: 10, at: now)
        let again = window.admitAdoption()
        #expect(again, "a new window counts afresh")
    }
}
