import BlueZ
import Foundation

/// One relay, one configuration: start the streams, measure for a window while commands run, stop,
/// let what is under way arrive, then match what the devices logged with what arrived.
struct StreamPhase {
    /// Whose stream: the Activ5's force for the matrix, each family's in the family rows.
    var family = BenchFamily.activ5
    var devices: [BenchDevice]
    var rate: Int
    var seconds: Double
    /// Sample-period commands per second per device during the window.
    var commandsPerSecond: Double
    /// A passive listener on the bus: the same values' arrival there splits a relay's latency into the
    /// part before the relay (BlueZ, dbus-daemon) and the relay's own.
    var busTap: DBusFloor?

    var periodMilliseconds: Int16 { Int16(1000 / rate) }

    func run(_ relay: any StreamRelay) async throws -> PhaseFigures {
        do {
            return try await measure(relay)
        } catch {
            // Leave the devices idle and free for the next relay, whatever went wrong.
            try? await relay.stopStreams(devices)
            try? await relay.shutdown(devices)
            throw error
        }
    }

    private func measure(_ relay: any StreamRelay) async throws -> PhaseFigures {
        let begin = MonotonicClock.nanoseconds()
        try await relay.start(devices, periodMilliseconds: periodMilliseconds)
        // The window opens once every device's values arrive.
        let watchedDevices = devices
        let flowing = await poll(timeout: .seconds(30)) {
            watchedDevices.allSatisfy { !relay.receptions(of: $0).isEmpty }
        }
        guard flowing else { throw BenchFailure("\(relay.name): not every device streams") }
        try relay.windowOpened()
        let windowStart = MonotonicClock.nanoseconds()
        let usageBefore = relay.processID.flatMap(ProcessUsage.read)
        let machineBefore = MachineLoad.read()
        let windowEnd = windowStart + UInt64(seconds * 1e9)
        let commandsSent = try await withThrowingTaskGroup(of: (String, [UInt64]).self) { group in
            for device in devices where commandsPerSecond > 0 {
                group.addTask { (device.address, try await commandLoad(relay, device, until: windowEnd)) }
            }
            return try await group.reduce(into: [String: [UInt64]]()) { $0[$1.0] = $1.1 }
        }
        let now = MonotonicClock.nanoseconds()
        if now < windowEnd { try await Task.sleep(for: .nanoseconds(Int64(windowEnd - now))) }
        let instructions = try relay.windowClosed()
        let usageAfter = relay.processID.flatMap(ProcessUsage.read)
        let machineAfter = MachineLoad.read()
        let windowClosed = MonotonicClock.nanoseconds()
        try await relay.stopStreams(devices)
        // What was sent before the window closed has this long to arrive.
        try await Task.sleep(for: .seconds(2))
        try await relay.shutdown(devices)
        // The simulators write their logs every 100 ms.
        try await Task.sleep(for: .milliseconds(300))

        var busLatencies: [Int64] = []
        var notificationLatencies: [Int64] = []
        var commandLatencies: [Int64] = []
        var sent = 0
        var inWindow = 0
        for device in devices {
            let records = TrafficRecord.read(path: device.trafficLog).filter { $0.nanoseconds >= begin }
            let sentValues = Self.sent(records, family: family, until: windowClosed)
            sent += sentValues.count
            if let busTap {
                let onBus = busTap.receptions(ofAddress: device.address).filter { $0.nanoseconds >= begin }
                busLatencies += OrderedMatch.latencies(sent: sentValues, received: onBus, period: family.period)
            }
            let delivered = relay.receptions(of: device).filter { $0.nanoseconds >= begin }
            notificationLatencies += OrderedMatch.latencies(
                sent: sentValues, received: delivered, period: family.period)
            inWindow += delivered.count { $0.nanoseconds >= windowStart && $0.nanoseconds <= windowClosed }
            // The i-th write after the window opened answers the i-th command.
            let writes = records.filter {
                $0.kind == .write && $0.characteristic == "f0fa" && $0.nanoseconds >= windowStart
            }
            for (command, write) in zip(commandsSent[device.address] ?? [], writes) {
                commandLatencies.append(Int64(write.nanoseconds) - Int64(command))
            }
        }
        let windowSeconds = Double(windowClosed - windowStart) / 1e9
        var cpu: Double?
        var wait: Double?
        var corePercent: Double?
        // Sums over the threads alive at each reading: a thread that ended in the window can make a sum
        // fall, and then the window has no figure rather than a wrong one.
        func increase(_ before: UInt64, _ after: UInt64) -> Double? { after >= before ? Double(after - before) : nil }
        if let usageBefore, let usageAfter, let used = increase(usageBefore.cpuNanoseconds, usageAfter.cpuNanoseconds) {
            corePercent = used / Double(windowClosed - windowStart) * 100
            if inWindow > 0 {
                cpu = used / 1e6 / Double(inWindow) * 1000
                wait = increase(usageBefore.waitNanoseconds, usageAfter.waitNanoseconds).map {
                    $0 / 1e6 / Double(inWindow) * 1000
                }
            }
        }
        var machineBusy: Double?
        if let machineBefore, let machineAfter { machineBusy = machineAfter.busyPercent(since: machineBefore) }
        return PhaseFigures(
            relay: relay.name, sent: sent, received: notificationLatencies.count,
            notificationLatency: LatencySummary(nanoseconds: notificationLatencies),
            receivedPerSecond: Double(inWindow) / windowSeconds,
            commandLatency: LatencySummary(nanoseconds: commandLatencies),
            cpuMillisecondsPer1000: cpu, waitMillisecondsPer1000: wait, relayCorePercent: corePercent,
            machineBusyPercent: machineBusy,
            residentKilobytes: usageAfter?.residentKilobytes, anonymousKilobytes: usageAfter?.anonymousKilobytes,
            busLatency: busTap == nil ? nil : LatencySummary(nanoseconds: busLatencies),
            instructionsPerMessage: instructions.flatMap { inWindow > 0 ? Double($0.total) / Double(inWindow) : nil },
            notificationPathInstructionsPerMessage: instructions?.within.flatMap {
                inWindow > 0 ? Double($0) / Double(inWindow) : nil
            })
    }

    /// The stream's values a device's log says it sent up to `end`, each once: a value notified to two
    /// subscriptions at once is logged twice in a row, and no stream repeats a sequence back to back.
    static func sent(_ records: [TrafficRecord], family: BenchFamily, until end: UInt64) -> [(
        sequence: Int, nanoseconds: UInt64
    )] {
        var values: [(sequence: Int, nanoseconds: UInt64)] = []
        for record in records
        where record.kind == .notification && record.characteristic == family.logName && record.nanoseconds <= end {
            guard let sequence = family.sequence(sent: record.value), values.last?.sequence != sequence else {
                continue
            }
            values.append((sequence, record.nanoseconds))
        }
        return values
    }

    /// Sample-period commands (the period in force, so the stream does not change), one at a time,
    /// until `end`; returns when each was sent.
    private func commandLoad(_ relay: any StreamRelay, _ device: BenchDevice, until end: UInt64) async throws
        -> [UInt64]
    {
        var sent: [UInt64] = []
        let gapNanoseconds = UInt64(1e9 / commandsPerSecond)
        let gap = Duration.nanoseconds(Int64(gapNanoseconds))
        // Devices start at different moments in the gap, as independent users would.
        try await Task.sleep(for: gap * Double.random(in: 0..<1))
        while MonotonicClock.nanoseconds() + gapNanoseconds < end {
            sent.append(try await relay.command(device, periodMilliseconds: periodMilliseconds))
            try await Task.sleep(for: gap)
        }
        return sent
    }
}
