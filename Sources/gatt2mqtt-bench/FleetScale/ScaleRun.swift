import Foundation
import TestSupport

/// One fleet size on one broker: its gateways started at once, a cold start until every device has one owner, a
/// rest window, then owners killed one after another. The figures come from what the observer saw and from this
/// process's CPU time, which is the gateways' (the observer, the relays and the broker are processes of their own).
struct ScaleRun {
    var topology: ScaleTopology
    var broker: ScaleBroker
    /// The refresh R the gateways run with: the default, 10 s (lease 30 s).
    static let refresh = 10.0
    /// Kills per size: each hands over every device its victim owned.
    static let kills = 2

    func run() async throws -> ScaleFigures {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "fleet-scale-\(getpid())-\(topology.gateways)-\(broker.key)"
        ).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let observer = try await ScaleObserver.start(
            port: broker.observerPort, v311: broker.v311, counters: broker.counts)
        var gateways: [ScaleGateway] = []
        do {
            for index in 0..<topology.gateways {
                let relay = try await BrokerRelay.start(to: broker.gatewayPort(index))
                let heard = topology.heard(by: index).map {
                    (ScaleTopology.address(of: $0.device), ScaleTopology.name(of: $0.device), $0.rssi)
                }
                gateways.append(
                    try ScaleGateway(
                        name: ScaleTopology.gatewayName(index), heard: heard, relay: relay,
                        protocolVersion: broker.v311 ? .v311 : .v5, folder: folder))
            }
            let figures = try await measure(gateways, observer: observer)
            await stop(gateways, observer)
            return figures
        } catch {
            await stop(gateways, observer)
            throw error
        }
    }

    private func stop(_ gateways: [ScaleGateway], _ observer: ScaleObserver) async {
        await withTaskGroup(of: Void.self) { stopping in
            for gateway in gateways { stopping.addTask { await gateway.stop() } }
        }
        await observer.stop()
    }

    private func measure(_ gateways: [ScaleGateway], observer: ScaleObserver) async throws -> ScaleFigures {
        let refresh = Self.refresh
        let started = Self.now
        for gateway in gateways { gateway.start() }
        say("\(gateways.count) gateways started, \(topology.devices) devices")
        // Cold start: until every device has exactly one owner, or two minutes.
        var coldStart: Double?
        while coldStart == nil, Self.now - started < 120 {
            try await Task.sleep(for: .seconds(1))
            let ledger = OwnershipLedger(ScaleObserver.ledgerEvents(observer.messages))
            coldStart = ledger.firstTimeOneOwnerEach(devices: topology.devices, from: started).map { $0 - started }
        }
        say("cold start: " + (coldStart.map { String(format: "one owner each after %.1f s", $0) } ?? "not reached"))
        // A refresh to settle, then three at rest.
        try await Task.sleep(for: .seconds(refresh))
        let restStart = Self.now
        let cpuAtStart = Self.cpuSeconds()
        try await Task.sleep(for: .seconds(3 * refresh))
        let restEnd = Self.now
        let cpuAtRest = (Self.cpuSeconds() - cpuAtStart) / (restEnd - restStart)
        let messages = observer.messages
        let owners = OwnershipLedger(ScaleObserver.ledgerEvents(messages)).owners(at: restEnd)
        let ownerCounts =
            owners.values.map(\.count) + Array(repeating: 0, count: max(0, topology.devices - owners.count))
        say(
            String(
                format: "rest: %.1f fleet messages/s, CPU %.1f %% of a core", rates(messages, restStart, restEnd).fleet,
                cpuAtRest * 100))

        let takeOver = try await killOwners(gateways, observer: observer)
        return ScaleFigures(
            topology: topology, broker: broker.key, refreshSeconds: refresh, coldStartSeconds: coldStart,
            ownersAtRest: (ownerCounts.min() ?? 0, ownerCounts.max() ?? 0),
            rest: rates(messages, restStart, restEnd),
            brokerSentAtRest: Self.counterRate(messages, "sent", restStart, restEnd),
            brokerReceivedAtRest: Self.counterRate(messages, "received", restStart, restEnd),
            cpuAtRest: cpuAtRest,
            takeOver: takeOver.rates, brokerSentInTakeOver: takeOver.brokerSent, cpuInTakeOver: takeOver.cpu,
            willDelays: takeOver.willDelays, afterWill: LatencySummary(nanoseconds: takeOver.afterWill),
            afterKill: LatencySummary(nanoseconds: takeOver.afterKill), untaken: takeOver.untaken)
    }

    func rates(_ messages: [ScaleObserver.Message], _ from: Double, _ to: Double) -> FleetTraffic.Rates {
        FleetTraffic.Rates(
            messages.filter { $0.at >= from && $0.at < to }.map { FleetTraffic.kind(of: $0.topic) }, seconds: to - from)
    }

    /// The broker's publishes `sent` or `received` per second between two of its counter readings.
    static func counterRate(_ messages: [ScaleObserver.Message], _ name: String, _ from: Double, _ to: Double)
        -> Double?
    {
        guard let first = ScaleObserver.brokerCounter(messages, name, at: from),
            let last = ScaleObserver.brokerCounter(messages, name, at: to), last.at > first.at
        else { return nil }
        return (last.value - first.value) / (last.at - first.at)
    }

    /// The wall clock, as mosquitto_sub stamps messages with it.
    static var now: Double { Date().timeIntervalSince1970 }

    /// This process's CPU time so far (user and system, every thread, ended ones included).
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    func say(_ text: String) {
        FleetScaleBench.say("\(topology.gateways) gateways, \(topology.reach.rawValue), \(broker.key): \(text)")
    }
}
