import Foundation
import MQTT
import TestSupport
import Testing

/// Gateways of a fleet as processes, where the fleet crosses a real boundary: the default settings in both
/// BlueZ worlds, two mosquitto brokers joined by a bridge (and a RabbitMQ cluster: `ClusteredBrokerFleetTests`).
/// What the fleet decides on one broker (one owner, one reply, a take-over with its navigation, the users'
/// choices first) runs in memory: `GatewayFleetTests`.
@Suite(.serialized)
struct FleetEndToEndTests {
    /// Default settings (`fleet.enabled: auto`, only the refresh shortened): a gateway alone connects the belt at
    /// once and says nothing of a fleet; a second one started beside it, though it hears the belt better (BlueZoo: 30 dB),
    /// finds the belt owned and leaves it, so a command gets one reply. When the owner dies the other is alone
    /// and takes the belt at once.
    /// In both worlds: on the real bluetoothd, two gateways on two controllers of one guest (btvirt reports no RSSI,
    /// which a gateway alone does not need).
    @Test(arguments: BlueZWorld.enabled)
    func twoGatewaysWithDefaultSettingsNeverFight(_ kind: BlueZWorld) async throws {
        try await TestWorld.with(kind, centralAdapters: 2, peripheralAdapters: 1) { world in
            if kind == .bluezoo {
                try await world.setSignal(adapter: 0, device: 2, mean: -80)
                try await world.setSignal(adapter: 1, device: 2, mean: -50)
            }
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(world: world)
            let quick = ["--fleet-refresh-seconds", "1"]
            let a = try await world.startBridge(gateway: "gw-a", adapters: ["hci0"], extraArguments: quick)
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/\(id)/owner") { $0.payloadString == "gw-a" }
            #expect(
                recorder.messages.allSatisfy {
                    !$0.topic.hasPrefix("gatt2mqtt/gw-a/claim/") && $0.topic != "gatt2mqtt/gw-a/fleet"
                },
                "alone, a gateway publishes no claims and no heartbeats")

            let joined = recorder.mark
            let b = try await world.startBridge(gateway: "gw-b", adapters: ["hci1"], extraArguments: quick)
            try await recorder.waitFor("gatt2mqtt/gw-a/claim/belt/\(id)", after: joined) {
                $0.payloadString?.contains(#""state":"owner""#) == true
            }
            try recorder.publish("belt/\(id)/cmd/mode", #"{"mode":"app"}"#, responseTopic: "reply/test/fleet/default")
            #expect(
                try await recorder.waitFor("reply/test/fleet/default").payloadString == #"{"command":"mode","ok":true}"#
            )
            // gw-b listens a lease (3 s) and settles (1.5 s) before it could take anything; six of its heartbeats are longer.
            try await TwoGatewayWorld.heartbeats(recorder, "gw-b", after: joined, count: 6)
            #expect(
                recorder.messages(on: "reply/test/fleet/default").count == 1,
                "one reply: gw-b stays silent about gw-a's belt")
            #expect(!b.outputText.contains("device found"), "gw-b never connected the belt")
            #expect(
                recorder.messages.dropFirst(joined).allSatisfy {
                    $0.topic != "belt/\(id)/owner" || $0.payloadString == "gw-a"
                })

            // gw-a's host goes: its link drops and its gatt2mqtt dies (frozen first, so that it cannot reconnect in between).
            // The link must go too: bluetoothd keeps the link of a killed client, and the real one (5.66, btvirt)
            // crashed when a second central connected to the belt it still held. Gone means gone for the belt too: once
            // Disconnect was answered while the belt still held the link (it said so only when bluetoothd died, 12 s
            // later), gw-b took the belt over a lease after gw-a froze, and the crash came again. So gw-b waits, frozen
            // too, until the belt has seen the link go.
            let death = recorder.mark
            a.send(SIGSTOP)
            b.send(SIGSTOP)
            let held = belt.lines.count
            try await world.dropLink(adapter: 0, address: try belt.simulatedAddress)
            try await belt.waitForLine(containing: "central disconnected: ", after: held, timeout: .seconds(20))
            b.send(SIGCONT)
            a.send(SIGKILL)
            try await recorder.waitFor("belt/\(id)/owner", after: death, timeout: .seconds(30)) {
                $0.payloadString == "gw-b"
            }
            try await recorder.waitFor("belt/\(id)/connection", after: death, timeout: .seconds(40)) {
                $0.payloadString == "connected"
            }
            try await b.waitForLine(containing: "device found")
            await recorder.stop()
        }
    }

    /// The fleet across two mosquitto brokers joined by a bridge, a gateway on each: claims cross the
    /// bridge, and when the far broker dies (SIGKILL: no will is ever published for its clients) the
    /// near gateway takes the belt over once the far owner's claims have lapsed; when the far broker
    /// returns, its gateway sees the newer owner and lets go.
    @Test func aFleetSpansTwoBridgedBrokersAndSurvivesTheDeathOfOne() async throws {
        try await TwoGatewayWorld.run { world, folder in
            var options = MosquittoBroker.Options()
            options.extraConfiguration = [
                "connection fleet-bridge", "address 127.0.0.1:\(world.broker.port)", "topic # both 1",
                "restart_timeout 1",
            ]
            let far = try await MosquittoBroker.start(options: options)
            do {
                let recorder = try await TopicRecorder(world: world)
                let farClient = try await TopicRecorder(url: far.url, filter: "test/probe")
                // The bridge is up once a message published on the far broker reaches the near one.
                let deadline = ContinuousClock.now + .seconds(20)
                while recorder.messages(on: "test/probe").isEmpty, ContinuousClock.now < deadline {
                    try farClient.publish("test/probe", "1")
                    _ = try? await recorder.waitFor("test/probe", timeout: .milliseconds(500))
                }
                #expect(!recorder.messages(on: "test/probe").isEmpty, "the brokers' bridge never came up")
                await farClient.stop()

                let belt = try await world.startSimulator(["belt"])
                let id = try belt.simulatedID
                let b = try await world.startBridge(
                    gateway: "gw-b", adapters: ["hci1"], broker: far.url,
                    extraArguments: TwoGatewayWorld.fleetArguments("gw-b", folder: folder))
                let a = try await world.startBridge(
                    gateway: "gw-a", adapters: ["hci0"],
                    extraArguments: TwoGatewayWorld.fleetArguments("gw-a", folder: folder))
                try await recorder.waitFor("belt/\(id)/owner") { $0.payloadString == "gw-b" }
                try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
                #expect(!a.outputText.contains("device found"), "gw-a left the belt to gw-b")

                let death = recorder.mark
                far.process?.send(SIGKILL)
                try await recorder.waitFor("belt/\(id)/owner", after: death, timeout: .seconds(30)) {
                    $0.payloadString == "gw-a"
                }
                try await recorder.waitFor("belt/\(id)/connection", after: death) { $0.payloadString == "connected" }
                #expect(
                    recorder.messages(on: "gatt2mqtt/gw-b/status").allSatisfy { $0.payloadString != "offline" },
                    "a killed broker publishes no will")

                let returned = recorder.mark
                try await far.restart()
                try await b.waitForLine(containing: "lostConflict", timeout: .seconds(30))
                // Back on its broker, gw-b withheld the belt's retained state, and dropped it once it had heard that
                // gw-a owns the belt now: its old `owner` never overwrote gw-a's. (A session that is still running in the
                // second before gw-b hears gw-a may publish fresh state; only the replay of old state is withheld.)
                try await b.waitForLine(containing: "retained state after the reconnect dropped", timeout: .seconds(30))
                let stale = recorder.messages.dropFirst(returned).filter {
                    $0.topic == "belt/\(id)/owner" && $0.payloadString == "gw-b"
                }
                #expect(stale.isEmpty, "\(stale.map { "\($0.topic) \($0.payloadString ?? "")" })")
                await recorder.stop()
            } catch {
                await far.stop()
                throw error
            }
            await far.stop()
        }
    }
}
