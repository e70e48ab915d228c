import Foundation
import Peripherals
import TestSupport
import Testing

@testable import Bridge

/// The gateway's health, whole but in memory (`InMemoryGateway`): the report on `gatt2mqtt/<gateway>/health`,
/// whose figures follow from what the test did, and the health file a container's HEALTHCHECK reads, touched
/// while BlueZ's bus answers. `rss_bytes` is the test process's own, read from /proc as the daemon reads its own;
/// that `--health-seconds` and `GATT2MQTT_HEALTH_FILE` reach the configuration is the configuration tests' part.
@Suite(.timeLimit(.minutes(1))) struct GatewayHealthTests {
    static let topic = "gatt2mqtt/test/health"
    /// Short, so that a test sees a report every few tenths of a second rather than every minute.
    static let reportInterval = Duration.milliseconds(100)
    /// A modification time no touch can leave behind: a file that shows it was not touched since it was aged.
    static let longAgo = Date(timeIntervalSince1970: 1_000_000_000)

    // MARK: The report

    /// A belt connected and quiet (a report with nothing in and no notifications), then busy with commands and
    /// headings: the report names it, with rates above zero. Every key the process test looked for is there, with
    /// real values.
    @Test func theReportShowsAConnectedBeltAndItsTraffic() async throws {
        try await InMemoryGateway.with(configure: { $0.healthInterval = Self.reportInterval }) { gateway in
            let belt = InMemoryDevices.belt()
            let id = await gateway.connect(belt, family: "belt")
            let key = "belt/\(id)"
            // After the handshake a window passes in which nothing comes in and the belt sends nothing.
            _ = await report(gateway) {
                $0.number("messages_in_per_s") == 0 && $0.device(key, "notifications_per_s") == 0
            }
            // Traffic runs on until a report has seen it, so no window boundary can split it away.
            let traffic = Task { await Self.exchange(with: belt, id: id, on: gateway) }
            let busy = try await withCleanUp({
                traffic.cancel()
                await traffic.value
            }) {
                await report(gateway) {
                    $0.number("messages_in_per_s") > 0 && $0.device(key, "notifications_per_s") > 0
                }
            }

            let expected: Set = [
                "version", "uptime_s", "rss_bytes", "messages_in_per_s", "messages_out_per_s", "decode_errors",
                "broker_reconnects",
            ]
            #expect(expected.isSubset(of: busy.keys), "missing: \(expected.subtracting(busy.keys))")
            #expect(busy.version == (try ProjectPaths.version()), "the version of the VERSION file")
            #expect(busy.number("rss_bytes") > 1_000_000, "this process's resident memory, from /proc")
            #expect(busy.number("uptime_s") >= 0 && busy.number("uptime_s") < 60)
            #expect(busy.devices == [key], "the one device this gateway serves")
            // Each heading goes out (as `heading` and `orientation`) in the window that counts it. Not compared with the
            // quiet window's: late start-up publications (Home Assistant's configs once `info` is in) may fall in it.
            #expect(
                busy.number("messages_out_per_s") >= busy.device(key, "notifications_per_s"),
                "headings, replies and the reports")
            for total in [
                "decode_errors", "broker_reconnects", "dropped_messages", "dropped_notifications", "oversized_messages",
            ] {
                #expect(busy.number(total) == 0, "nothing went wrong: \(total)")
            }
            #expect(busy.device(key, "reconnects") == 0 && busy.device(key, "decode_errors") == 0)
            #expect(gateway.broker.retained(Self.topic) == nil, "a report is an event, never retained")
            // The counters the report reads also count sessions by state (for /metrics; the report leaves them out).
            #expect(gateway.bridge.counters.sessions == ["connected": 1])
        }
    }

    /// Three malformed headings and a dropped link: the report counts exactly those, for the device and in all.
    @Test func theReportCountsMalformedNotificationsAndReconnects() async throws {
        try await InMemoryGateway.with(configure: { $0.healthInterval = Self.reportInterval }) { gateway in
            let belt = InMemoryDevices.belt()
            let id = await gateway.connect(belt, family: "belt")
            let key = "belt/\(id)"
            for _ in 0..<3 { await belt.notify(BeltGATT.Characteristic.orientation, [0x01, 0x02]) }
            let mark = gateway.probe.mark
            await gateway.central.dropLink(of: belt.device.path)
            await gateway.probe.next(on: "\(key)/connection", after: mark) { $0 == "connected" }
            // Totals only grow: wait until both show, then check that they are exactly what the test did.
            let counted = await report(gateway) {
                $0.device(key, "reconnects") > 0 && $0.device(key, "decode_errors") >= 3
            }
            #expect(counted.device(key, "reconnects") == 1)
            #expect(counted.device(key, "decode_errors") == 3)
            #expect(counted.number("decode_errors") == 3, "the gateway's total is the devices' sum")
            #expect(counted.number("broker_reconnects") == 0, "the belt's link dropped, not the broker's")
            #expect(gateway.bridge.counters.sessions == ["connected": 1])
        }
    }

    /// The next health report from now on that `predicate` takes.
    private func report(
        _ gateway: InMemoryGateway, where predicate: @escaping @Sendable (HealthReading) -> Bool
    ) async -> HealthReading {
        let message = await gateway.probe.next(on: Self.topic, after: gateway.probe.mark) {
            HealthReading($0).map(predicate) ?? false
        }
        return HealthReading(message.payloadString ?? "") ?? HealthReading()
    }

    /// Round after round until cancelled: a command in (its reply out) and a heading from the belt. Each round
    /// waits for its reply, so the traffic goes at the gateway's pace.
    private static func exchange(with belt: InMemoryLink, id: String, on gateway: InMemoryGateway) async {
        var round = 0
        while !Task.isCancelled {
            let reply = "reply/test/health/\(round)"
            try? gateway.publish("belt/\(id)/cmd/stop", "{}", responseTopic: reply)
            let heading = BeltOrientation(beltHeading: Int16(round % 360), boxHeading: 0, accuracy: 5)
            await belt.notify(BeltGATT.Characteristic.orientation, BeltNotification.orientation(heading).encoded())
            await gateway.probe.next(on: reply)
            round += 1
        }
    }

    // MARK: The health file

    /// Touched every round while the bus answers; left to age while it does not; touched again when it is back.
    /// The log says so once, at the first touch: the bus's absence shows in the file's age, as the HEALTHCHECK reads it.
    @Test func theHealthFileIsTouchedOnlyWhileTheBusAnswers() async throws {
        try await withHealthFile { gateway, path in
            await gateway.log.waitForLine(containing: "health file \(path): touched every")
            #expect(FileManager.default.fileExists(atPath: path), "made at the first touch")
            try age(path)
            await rounds(1, of: gateway)
            #expect(try modified(path).timeIntervalSinceNow > -60, "touched again")

            gateway.central.setBusConnected(false)
            await rounds(1, of: gateway)  // a round that asked before the bus went away has touched by now
            try age(path)
            await rounds(3, of: gateway)
            #expect(try modified(path) == Self.longAgo, "not touched while the bus is away")

            gateway.central.setBusConnected(true)
            await rounds(1, of: gateway)
            #expect(try modified(path).timeIntervalSinceNow > -60, "touched again once the bus is back")
            let said = gateway.log.lines.filter { $0.contains("health file") }
            #expect(said.count == 3, "each change logged once: \(said)")
            #expect(said.contains { $0.contains("no longer touched, BlueZ's bus does not answer") }, "\(said)")
            #expect(said.last?.contains("touched again") == true, "\(said)")
        }
    }

    /// A file that cannot be made (its directory is missing) is warned about once, not every round, and the
    /// first touch that works is logged as a first touch is.
    @Test func aHealthFileThatCannotBeTouchedIsWarnedAboutUntilItCanBe() async throws {
        try await withHealthFile(in: "missing") { gateway, path in
            await gateway.log.waitForLine(containing: "cannot touch the health file \(path): No such file or directory")
            await rounds(2, of: gateway)
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            await gateway.log.waitForLine(containing: "health file \(path): touched every")
            #expect(FileManager.default.fileExists(atPath: path))
            #expect(gateway.log.lines.filter { $0.contains("cannot touch") }.count == 1, "\(gateway.log.lines)")
        }
    }

    /// Runs `body` with a gateway whose health file (in a fresh directory, under `folder` when given) is touched
    /// every few milliseconds instead of every 15 s; removes the directory afterwards.
    private func withHealthFile(in folder: String? = nil, _ body: (InMemoryGateway, String) async throws -> Void)
        async throws
    {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("g2m-health-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = [directory, folder, "alive"].compactMap { $0 }.joined(separator: "/")
        try await withCleanUp({ try? FileManager.default.removeItem(atPath: directory) }) {
            try await InMemoryGateway.with(configure: {
                $0.healthFile = path
                $0.healthFileInterval = .milliseconds(10)
            }) { try await body($0, path) }
        }
    }

    /// Returns once the health file has gone through `count` whole rounds that began from now. A round asks
    /// whether the bus answers, touches, then sleeps: when the question after a round is asked, that round is over.
    private func rounds(_ count: Int, of gateway: InMemoryGateway) async {
        await gateway.central.waitForBusChecks(gateway.central.busChecks + count + 1)
    }

    private func age(_ path: String) throws {
        try FileManager.default.setAttributes([.modificationDate: Self.longAgo], ofItemAtPath: path)
    }

    private func modified(_ path: String) throws -> Date {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
    }
}

/// A health report as the test reads it: its keys, its numbers, and each device's numbers.
private struct HealthReading: Sendable {
    var keys: Set<String> = []
    var version: String?
    private var numbers: [String: Double] = [:]
    private var deviceNumbers: [String: [String: Double]] = [:]

    init() {}

    /// Nil when `payload` is not a JSON object.
    init?(_ payload: String) {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(payload.utf8))) as? [String: Any] else {
            return nil
        }
        keys = Set(object.keys)
        version = object["version"] as? String
        numbers = Self.numbers(object)
        let devices = object["devices"] as? [String: Any] ?? [:]
        deviceNumbers = devices.compactMapValues { ($0 as? [String: Any]).map(Self.numbers) }
    }

    var devices: Set<String> { Set(deviceNumbers.keys) }

    /// A top-level figure; -1 when it is missing, so that no comparison with a real figure passes by accident.
    func number(_ key: String) -> Double { numbers[key] ?? -1 }

    /// One device's figure; -1 when it is missing.
    func device(_ device: String, _ key: String) -> Double { deviceNumbers[device]?[key] ?? -1 }

    private static func numbers(_ object: [String: Any]) -> [String: Double] {
        object.compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }
}
