import Testing

@testable import gatt2mqtt_bench

/// The fleet-scale benchmark's pure parts: who hears which device, what each message on the broker is, who owned
/// which device when (replayed from claims and wills), the observer's lines, and its section of the document.
struct FleetScaleTests {
    @Test("with neighbours, every device has three hearers, its home gateway the loudest, whatever the fleet's size")
    func neighbours() {
        for gateways in [3, 10, 50] {
            let topology = ScaleTopology(gateways: gateways, reach: .neighbours)
            #expect(topology.devices == 20 * gateways)
            for device in 0..<topology.devices {
                let heard = (0..<gateways).compactMap { topology.rssi(device: device, gateway: $0) }
                #expect(heard.count == 3, "device \(device) of \(gateways) gateways")
                #expect(topology.rssi(device: device, gateway: topology.home(of: device)) == heard.max())
                #expect(Set(heard).count == 3, "no tie between the neighbours")
            }
            let load = (0..<gateways).map { topology.heard(by: $0).count }
            #expect(load.allSatisfy { $0 == 60 }, "each gateway hears its 20 and its neighbours' 40")
            #expect(
                (0..<gateways).map { gateway in
                    (0..<topology.devices).filter { topology.home(of: $0) == gateway }.count
                }.allSatisfy { $0 == 20 })
        }
    }

    @Test("with everyone, every gateway hears every device, weaker the farther round the ring")
    func everyone() {
        let topology = ScaleTopology(gateways: 10, reach: .everyone)
        #expect(topology.hearersPerDevice == 10)
        for gateway in 0..<10 { #expect(topology.heard(by: gateway).count == 200) }
        let device = 0
        #expect(topology.rssi(device: device, gateway: 0) == -55)
        #expect(topology.rssi(device: device, gateway: 1) == -70)
        #expect(topology.rssi(device: device, gateway: 9) == -70)
        #expect(topology.rssi(device: device, gateway: 5) == -82)
        #expect(ScaleTopology(gateways: 100, reach: .everyone).rssi(device: 0, gateway: 50) == -100)
    }

    @Test("names sort as numbers, addresses are distinct, names are CPR-Bands'")
    func names() {
        #expect(ScaleTopology.gatewayName(0) == "gw-01")
        #expect(ScaleTopology.gatewayName(49) == "gw-50")
        #expect(ScaleTopology.address(of: 0) == "C0:FF:EE:00:00:00")
        #expect(ScaleTopology.address(of: 999) == "C0:FF:EE:00:03:E7")
        #expect(Set((0..<1000).map(ScaleTopology.address(of:))).count == 1000)
        #expect(ScaleTopology.name(of: 7) == "CPR-Band 0007")
    }

    @Test("messages are sorted into claims, heartbeats, statuses, owners and the rest")
    func kinds() {
        let cases: [(String, FleetTraffic.Kind)] = [
            ("gatt2mqtt/gw-01/claim/cpr/c0ffee000001", .claim),
            ("gatt2mqtt/gw-01/fleet", .heartbeat),
            ("gatt2mqtt/gw-01/status", .status),
            ("cpr/c0ffee000001/owner", .owner),
            ("cpr/c0ffee000001/battery", .other),
            ("gatt2mqtt/gw-01/health", .other),
            ("gatt2mqtt/gw-01/claim/cpr", .other),
            ("$SYS/broker/publish/messages/sent", .other),
        ]
        for (topic, kind) in cases { #expect(FleetTraffic.kind(of: topic) == kind, "\(topic)") }
        let rates = FleetTraffic.Rates([.claim, .claim, .heartbeat, .status, .owner, .other], seconds: 2)
        #expect(rates.claims == 1 && rates.heartbeats == 0.5 && rates.statuses == 0.5)
        #expect(rates.fleet == 2)
        #expect(FleetTraffic.Rates([.claim], seconds: 0).fleet == 0)
    }

    private typealias Event = OwnershipLedger.Event

    private func claim(_ at: Double, _ gateway: String, _ device: String, owner: Bool = true) -> Event {
        Event(at: at, gateway: gateway, what: .claim(device: device, owner: owner))
    }

    @Test("one owner each: reached once every device has exactly one, not while two gateways own one")
    func coldStart() {
        let ledger = OwnershipLedger([
            claim(1, "gw-01", "cpr/a"),
            claim(1.5, "gw-02", "cpr/a"),
            claim(2, "gw-02", "cpr/b"),
            claim(3, "gw-02", "cpr/a", owner: false),
            claim(4, "gw-01", "cpr/a"),
        ])
        #expect(ledger.firstTimeOneOwnerEach(devices: 2, from: 0) == 3)
        #expect(ledger.firstTimeOneOwnerEach(devices: 2, from: 3.5) == 4)
        #expect(ledger.firstTimeOneOwnerEach(devices: 3, from: 0) == nil)
        #expect(ledger.owners(at: 1.7)["cpr/a"] == ["gw-01", "gw-02"])
    }

    @Test("a will ends every claim of its gateway; each of its devices is taken when another says owner")
    func takeOver() {
        let ledger = OwnershipLedger([
            claim(1, "gw-01", "cpr/a"),
            claim(1, "gw-01", "cpr/b"),
            claim(1, "gw-02", "cpr/c"),
            claim(1, "gw-02", "cpr/a", owner: false),
            Event(at: 10.2, gateway: "gw-01", what: .status(online: false)),
            claim(10.9, "gw-02", "cpr/a"),
            claim(11.1, "gw-03", "cpr/a"),
        ])
        #expect(ledger.will(of: "gw-01", after: 10) == 10.2)
        #expect(ledger.will(of: "gw-02", after: 10) == nil)
        #expect(ledger.owners(at: 10.5)["cpr/a"] == [])
        let taken = ledger.takeovers(of: "gw-01", killedAt: 10, since: 10.2)
        #expect(taken.count == 2)
        #expect(abs((taken["cpr/a"] ?? nil).map { $0 - 0.7 } ?? 1) < 1e-9, "the first other owner counts")
        #expect(taken["cpr/b"] == .some(nil), "nobody took b")
        #expect(ledger.firstTimeOneOwnerEach(devices: 2, from: 10.5) == 10.9, "a and c have one owner each")
        #expect(
            ledger.firstTimeOneOwnerEach(devices: 3, from: 10.5) == nil, "nobody took b; a has two owners from 11.1")
    }

    @Test("the observer's lines: time, topic, the payload with its spaces; anything else is left out")
    func observerLines() {
        let message = ScaleObserver.parse("1795894259.422272484 gatt2mqtt/gw-01/status online")
        #expect(message?.topic == "gatt2mqtt/gw-01/status" && message?.payload == "online")
        #expect(abs((message?.at ?? 0) - 1_795_894_259.422) < 0.001)
        #expect(ScaleObserver.parse("1.5 a/b {\"x\": 1, \"y\": 2}")?.payload == "{\"x\": 1, \"y\": 2}")
        #expect(ScaleObserver.parse("2.0 a/b")?.payload == "")
        #expect(ScaleObserver.parse("Client null sending CONNECT") == nil)
        let claim = ScaleObserver.Message(
            at: 5, topic: "gatt2mqtt/gw-02/claim/cpr/c0ffee000001",
            payload: #"{"gateway":"gw-02","incarnation":3,"seq":41,"term":7,"state":"owner","rssi":-61,"free_slots":4}"#
        )
        let forged = ScaleObserver.Message(at: 6, topic: "gatt2mqtt/gw-02/claim/cpr/x", payload: "{")
        let will = ScaleObserver.Message(at: 7, topic: "gatt2mqtt/gw-02/status", payload: "offline")
        let taken = ScaleObserver.Message(at: 8, topic: "cpr/c0ffee000001/owner", payload: "gw-03")
        let cleared = ScaleObserver.Message(at: 9, topic: "cpr/c0ffee000001/owner", payload: "")
        #expect(
            ScaleObserver.ledgerEvents([claim, forged, will, taken, cleared]) == [
                Event(at: 5, gateway: "gw-02", what: .claim(device: "cpr/c0ffee000001", owner: true)),
                Event(at: 7, gateway: "gw-02", what: .status(online: false)),
                Event(at: 8, gateway: "gw-03", what: .claim(device: "cpr/c0ffee000001", owner: true)),
            ])
        let counters = [
            ScaleObserver.Message(at: 1, topic: "$SYS/broker/publish/messages/sent", payload: "100"),
            ScaleObserver.Message(at: 2, topic: "$SYS/broker/publish/messages/sent", payload: "160"),
        ]
        #expect(ScaleObserver.brokerCounter(counters, "sent", at: 1.5)?.value == 100)
        #expect(ScaleObserver.brokerCounter(counters, "sent", at: 0.5) == nil)
    }

    @Test("the section is appended once, then replaced in place; the fleet bench finds it to keep")
    func section() {
        let document = "# Fleet benchmark\n\n## One mosquitto broker\n\ntext\n"
        let first = ScaleSection.replacing(in: document, with: "## Fleet at scale\n\nv1")
        #expect(first.hasPrefix(document))
        #expect(ScaleSection.block(of: first) == "\(ScaleSection.begin)\n## Fleet at scale\n\nv1\n\(ScaleSection.end)")
        let second = ScaleSection.replacing(in: first, with: "## Fleet at scale\n\nv2")
        #expect(second == first.replacingOccurrences(of: "v1", with: "v2"))
        #expect(ScaleSection.block(of: document) == nil)
        #expect(ScaleSection.replacing(in: "", with: "x") == "\(ScaleSection.begin)\nx\n\(ScaleSection.end)\n")
    }

    @Test("/proc/net/tcp: the ports in LISTEN")
    func listening() {
        let table = """
              sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
               0: 0100007F:0BB8 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1
               1: 0100007F:0BB9 0100007F:D2F0 01 00000000:00000000 00:00000000 00000000     0        0 2 1
            """
        #expect(ListeningSockets.listeningPorts(inProcNetTCP: table) == [3000])
    }
}
