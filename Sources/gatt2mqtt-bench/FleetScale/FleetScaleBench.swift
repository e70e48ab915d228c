import Foundation
import TestSupport

/// `gatt2mqtt-bench --fleet-scale` (`make bench-fleet-scale`), issue #46 item 6: a fleet of 3, 10 and 50 real
/// gateways (the `Bridge` with its real MQTT client, one connection each, in this process; BlueZ in memory) and
/// 20 devices per gateway, on one mosquitto and on the three-node RabbitMQ cluster: the broker's messages from
/// claims and heartbeats at rest and during a take-over, the gateways' CPU, the cold start, and how long an owner's
/// devices take to move after its SIGKILL. Writes its section of docs/fleet-benchmark.md and FLEET-SCALE-BENCHMARK.json.
struct FleetScaleBench {
    /// Fleet sizes with each device heard by its home gateway and the two either side.
    var sizes: [Int]
    /// Fleet sizes with every device heard by every gateway.
    var everyoneSizes: [Int]
    /// Fleet sizes (neighbours) on the RabbitMQ cluster.
    var rabbitMQSizes: [Int]
    var markdown: String
    var json: String

    func run() async throws {
        var groups: [(title: String, runs: [ScaleFigures])] = []
        let date = ISO8601DateFormatter().string(from: Date())
        func record(_ title: String, _ figures: ScaleFigures) throws {
            if let index = groups.firstIndex(where: { $0.title == title }) {
                groups[index].runs.append(figures)
            } else {
                groups.append((title, [figures]))
            }
            // After every run, so that what was measured is kept if a later run fails.
            try write(groups, date: date)
        }
        let plan: [(ScaleTopology.Reach, [Int])] = [(.neighbours, sizes), (.everyone, everyoneSizes)]
        for (reach, counts) in plan {
            for gateways in counts {
                let broker = try await ScaleBroker.mosquitto()
                let topology = ScaleTopology(gateways: gateways, reach: reach)
                do {
                    let figures = try await ScaleRun(topology: topology, broker: broker).run()
                    await broker.stop()
                    try record(Self.title(reach, "one mosquitto"), figures)
                } catch {
                    await broker.stop()
                    throw error
                }
            }
        }
        if !rabbitMQSizes.isEmpty {
            Self.say("starting the three-node RabbitMQ cluster")
            let cluster = try await RabbitMQCluster.start(nodes: 3)
            do {
                for gateways in rabbitMQSizes {
                    let topology = ScaleTopology(gateways: gateways, reach: .neighbours)
                    let figures = try await ScaleRun(topology: topology, broker: .rabbitMQ(cluster)).run()
                    try record(Self.title(.neighbours, "the three-node RabbitMQ cluster"), figures)
                }
                await cluster.stop()
            } catch {
                await cluster.stop()
                throw error
            }
        }
    }

    private static func title(_ reach: ScaleTopology.Reach, _ broker: String) -> String {
        switch reach {
        case .neighbours: "Each device heard by three gateways, \(broker)"
        case .everyone: "Every gateway hears every device, \(broker)"
        }
    }

    private func write(_ groups: [(title: String, runs: [ScaleFigures])], date: String) throws {
        let figures: [String: Any] = [
            "date": date, "refresh_s": ScaleRun.refresh, "kills_per_size": ScaleRun.kills,
            "devices_per_gateway": ScaleTopology.devicesPerGateway,
            "runs": groups.flatMap { $0.runs.map(\.json) },
        ]
        let data = try JSONSerialization.data(withJSONObject: figures, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: json))
        let tables = groups.map { "### \($0.title)\n\n\(ScaleFigures.table($0.runs))" }
        let section = """
            ## Fleet at scale

            `make bench-fleet-scale` (`gatt2mqtt-bench --fleet-scale`) writes this section and FLEET-SCALE-BENCHMARK.json;
            `make bench-fleet` keeps it. Run of \(date), on the benchmark machine of BENCHMARKS.md (2 cores).

            Real gateways in one process: each is the whole `Bridge` (its fleet coordinator and arbiters, its claims,
            heartbeats and will, the owner's device session) with its own MQTT client (libmosquitto), one broker
            connection per gateway, with the default settings (`fleet.enabled: auto`, R = \(Int(ScaleRun.refresh)) s, lease
            \(Int(ScaleRun.refresh * 3)) s). Only Bluetooth is in memory: each gateway's BlueZ has one adapter and the
            devices it hears at a fixed RSSI, and a CPR-Band connects at once. Each gateway reaches the broker through a
            `socat` relay of its own; SIGKILL to the relay is the gateway's SIGKILL as the broker sees it (the socket
            closes without DISCONNECT, the broker publishes the will), and the gateway's tasks are cancelled with it.

            \(ScaleTopology.devicesPerGateway) devices per gateway (3 × 20 = 60, 10 × 20 = 200, 50 × 20 = 1,000), spread round a
            ring of gateways: a device's home gateway hears it at −55 dBm and, in the first tables, the two gateways either
            side at −70 and −76 dBm (three hearers per device whatever the fleet's size; with 3 gateways that is everyone).
            In the last mosquitto table every gateway hears every device, 3 dB weaker per step from home. That case is
            run at 10 gateways only: at 50 × 1,000 it would be 50,000 claims every R, each sent to all 50 gateways
            (about 250,000 publishes a second), beyond this machine.

            The gateways start at once (a cold start); "one owner" counts the claims an observer (`mosquitto_sub` on
            `#`, its own process) saw, as the gateways count them (the latest claim of each gateway per device, a will ending
            all of that gateway's; a device's `owner` topic counts as its new owner's claim, since a gateway left alone
            takes devices without claiming them). After one R to settle, three R at rest: the messages the observer saw per second
            (each publish once), the broker's own count of the publishes it sent (`$SYS`, every subscriber's copy; RabbitMQ
            has none), and this process's CPU time (getrusage: the gateways only). Then \(ScaleRun.kills) kills, each of the
            gateway that owns most devices then, one R apart: the take-over window is the first R after a kill, and every
            device the victim owned is one sample of the take-over time (from the will's arrival at the observer, and from
            the kill).

            \(tables.joined(separator: "\n\n"))

            ### Reading the figures

            - The cold start is the gateways' listening: started together, each sees the others' `online` before its
              first decision, so none is alone and each takes nothing for a lease and the settle period (4.5 R, 45 s),
              whatever the fleet's size. (Started one after another, as in the default-settings section above, the first
              is alone and takes its devices at once.)
            - RabbitMQ delivers no retained message to a wildcard subscription, so a gateway there learns that others are
              online only from their live statuses and heartbeats. Gateways started together may then each find
              themselves alone, take what they hear at once and leave each device to one of them by rule 6 (the smaller
              name, not the loudest hearer): a short cold start, and one gateway that owns many devices.
            - Every gateway publishes a claim for every device it hears once per R, owner or not, and a heartbeat per R:
              the broker receives (devices × hearers + gateways) / R messages a second. With a fixed number of hearers
              per device that grows with the devices; when every gateway hears every device it grows with devices × gateways.
            - Each gateway subscribes to the claims of the devices it hears (`gatt2mqtt/+/claim/<family>/<id>`); only
              the first by name, which answers for devices nobody owns, subscribes to every claim. The broker sends a claim
              to the device's hearers, that gateway and the observer: devices × hearers × (hearers + 2) / R, level with the
              fleet's size when each device has three hearers. Heartbeats go to every gateway (gateways² / R): the part that
              still grows with the fleet, 0.1 × gateways / (devices per gateway) per device, 0.25 at 50 gateways of 20.
            - A will starts the next turn of every gateway that hears it (`TurnWake`): a take-over costs one turn's work
              (arbitrating every device the gateway hears), tens of milliseconds, more on a busy machine (at 50 gateways
              the machine spent a quarter of a core on the fleet at rest, half before the claim subscriptions). Before the
              wake, a turn was the fleet's work and then a 1 s sleep, and a will waited for the next: 0.7–0.8 s at the
              median and up to 1.03 s.
              A kill's devices are taken in the same turn or two of their neighbours, so with two kills per size the
              percentiles say more about the bound than about a typical take-over.
            - Against issue #46's goals (broker traffic growing with devices, not devices × gateways; a take-over under
              1 s after a will): the per-device claim subscriptions are the protocol's change for the first (the run
              before them sent 1.63, 3.76 and 15.77 publishes per device per second at 3, 10 and 50 gateways). Every
              hearer still refreshes its claim every R, owner or not; candidates that publish only on a change would
              leave about one claim per device per R however many hear it, a change to the rules' leases not made.
            """
        let old = (try? String(contentsOfFile: markdown, encoding: .utf8)) ?? ""
        try ScaleSection.replacing(in: old, with: section).write(toFile: markdown, atomically: true, encoding: .utf8)
    }

    /// Unbuffered, so that progress shows as it happens also when the output goes to a file.
    static func say(_ text: String) { FileHandle.standardOutput.write(Data("bench-fleet-scale: \(text)\n".utf8)) }
}
