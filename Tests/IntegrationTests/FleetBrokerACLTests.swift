import Foundation
import MQTT
import TestSupport
import Testing

/// The README's broker ACL recipe (`examples/mosquitto-fleet.acl`) on a real mosquitto, with a fleet of two
/// gateways and a belt: a dashboard cannot write any gateway's claims, and a gateway that may write its own
/// topics cannot claim in another gateway's name (the peers refuse a claim whose topic and payload disagree).
@Suite(.serialized)
struct FleetBrokerACLTests {
    static let users = [
        "gw-a": "pw-a", "gw-b": "pw-b", "gw-c": "pw-c", "dashboard": "pw-dashboard", "observer": "pw-observer",
    ]

    /// The recipe with its gateway block for gw-a, gw-b and gw-c, and an observer that reads everything.
    private func acl() throws -> String {
        let recipe = try String(contentsOfFile: ProjectPaths.root + "/examples/mosquitto-fleet.acl", encoding: .utf8)
        let start = try #require(recipe.range(of: "# --- one block per gateway"))
        let end = try #require(recipe.range(of: "# --- end of the gateway block ---"))
        let block = String(recipe[start.lowerBound..<end.upperBound])
        let gateways = ["gw-a", "gw-b", "gw-c"].map { block.replacingOccurrences(of: "kitchen", with: $0) }
        return gateways.joined(separator: "\n\n") + String(recipe[end.upperBound...])
            + "\nuser observer\ntopic read #\n"
    }

    private func client(_ world: TestWorld, _ user: String) async throws -> TopicRecorder {
        var configuration = try MQTTConfiguration(url: world.broker.url)
        configuration.username = user
        configuration.password = Self.users[user]
        return try await TopicRecorder(configuration: configuration)
    }

    private func claim(gateway: String, state: String) -> String {
        let most = 9_007_199_254_740_991
        return
            #"{"gateway":"\#(gateway)","incarnation":\#(most),"seq":1,"term":\#(most),"state":"\#(state)","rssi":-10,"free_slots":4}"#
    }

    @Test func onlyAGatewayWritesItsClaimsAndNoneClaimsInAnothersName() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-acl-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try acl().write(toFile: folder + "/acl", atomically: true, encoding: .utf8)
        var broker = MosquittoBroker.Options()
        broker.allowAnonymous = false
        broker.users = Self.users
        broker.extraConfiguration = ["acl_file \(folder)/acl"]
        try await TestWorld.with(.bluezoo, centralAdapters: 2, peripheralAdapters: 1, broker: broker) { world in
            try await world.setSignal(adapter: 0, device: 2, mean: -80)
            try await world.setSignal(adapter: 1, device: 2, mean: -50)
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let observer = try await client(world, "observer")
            func gateway(_ name: String, adapter: String) async throws -> ManagedProcess {
                try await world.startBridge(
                    gateway: name, adapters: [adapter],
                    extraArguments: [
                        "--fleet", "--fleet-refresh-seconds", "1", "--fleet-incarnation-file", "\(folder)/\(name)",
                    ],
                    extraEnvironment: [
                        "GATT2MQTT_MQTT_USERNAME": name, "GATT2MQTT_MQTT_PASSWORD": Self.users[name] ?? "",
                    ])
            }
            // gw-b, which hears the belt better, first: under load gw-a's start could otherwise end its listening and
            // settle time (4.5 s) before gw-b's claims arrive, and gw-a would rightly take the belt.
            let b = try await gateway("gw-b", adapter: "hci1")
            let a = try await gateway("gw-a", adapter: "hci0")
            try await observer.waitFor("belt/\(id)/owner") { $0.payloadString == "gw-b" }
            try await observer.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            let mark = observer.mark
            let (linesA, linesB) = (a.lineCount, b.lineCount)

            // A dashboard writes gw-b's release and gw-a's ownership: the broker drops both.
            let dashboard = try await client(world, "dashboard")
            try dashboard.publish("gatt2mqtt/gw-b/claim/belt/\(id)", claim(gateway: "gw-b", state: "released"))
            try dashboard.publish("gatt2mqtt/gw-a/claim/belt/\(id)", claim(gateway: "gw-a", state: "owner"))
            // gw-c, a gateway the broker knows, claims the belt in gw-a's name on its own topic: both gateways refuse it.
            let intruder = try await client(world, "gw-c")
            try intruder.publish("gatt2mqtt/gw-c/claim/belt/\(id)", claim(gateway: "gw-a", state: "owner"))
            try await a.waitForLine(
                containing: "fleet: claim ignored: it names another gateway than its topic", after: linesA)
            try await b.waitForLine(
                containing: "fleet: claim ignored: it names another gateway than its topic", after: linesB)

            // A lease and a settle time later (4.5 refreshes), nothing has moved.
            for _ in 0..<6 { try await observer.waitFor("gatt2mqtt/gw-b/fleet", after: observer.mark) }
            let forged = observer.messages.dropFirst(mark).filter {
                $0.payloadString?.contains("9007199254740991") == true
            }
            #expect(forged.map(\.topic) == ["gatt2mqtt/gw-c/claim/belt/\(id)"], "only gw-c's own topic took a claim")
            #expect(
                !observer.messages.dropFirst(mark).contains { $0.topic == "belt/\(id)/owner" }, "the owner stayed gw-b")
            // gw-b's decisions on the belt (`fleet: <change>`, with the device and its term): none. Other fleet lines
            // may come meanwhile (its claims subscription following the gateways it has heard of, gw-c among them).
            let moved = b.lines.dropFirst(linesB).map(\.text).filter { $0.contains("fleet: ") && $0.contains("term=") }
            #expect(moved.isEmpty, "gw-b changed nothing: \(moved)")
            #expect(!a.outputText.contains("device found"), "gw-a never connected the belt")
            // The broker logged the dashboard's forgeries it denied, and denied the gateways nothing they publish.
            let brokerLog = try #require(world.broker.process)
            try await brokerLog.waitForLine(
                containing: "Denied PUBLISH from \(dashboard.client.configuration.clientID) ")
            for name in ["gw-a", "gw-b"] {
                #expect(
                    !brokerLog.outputText.contains("Denied PUBLISH from gatt2mqtt-\(name) "),
                    "\(name) was denied a topic it publishes")
            }
            await intruder.stop()
            await dashboard.stop()
            await observer.stop()
        }
    }
}
