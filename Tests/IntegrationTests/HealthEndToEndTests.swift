import Foundation
import Testing
import TestSupport

@Suite(.serialized)
struct HealthEndToEndTests {
    @Test func theGatewayReportsItsHealth() async throws {
        try await TestWorld.with { world in
            let belt = try await world.startSimulator(["belt", "--orientation-period-ms", "100"])
            let id = try belt.simulatedID
            let recorder = try await TopicRecorder(url: world.broker.url)
            _ = try await world.startBridge(extraArguments: ["--health-seconds", "1"])
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            let mark = recorder.mark
            // A report over a full second of streaming: belt notifications at about 10/s plus keep-alives.
            let report = try await recorder.waitFor("gatt2mqtt/test/health", after: mark) { message in
                guard let data = message.payloadString?.data(using: .utf8),
                    let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                    let devices = json["devices"] as? [String: [String: Any]], let belt = devices["belt/\(id)"],
                    let rate = belt["notifications_per_s"] as? Double
                else { return false }
                return rate > 5
            }
            let text = try #require(report.payloadString)
            for key in ["uptime_s", "rss_bytes", "messages_in_per_s", "messages_out_per_s", "decode_errors", "broker_reconnects"] {
                #expect(text.contains("\"\(key)\""), "health has \(key)")
            }
            #expect(!report.retain)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            #expect(json["version"] as? String == (try ProjectPaths.version()), "the version of the VERSION file")
            await recorder.stop()
        }
    }

    /// `GATT2MQTT_HEALTH_FILE` (a container's HEALTHCHECK): the file appears once the daemon runs and is fresh.
    @Test func theHealthFileIsTouchedWhileTheBusAnswers() async throws {
        try await TestWorld.with { world in
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("g2m-alive-\(UUID().uuidString.prefix(8))").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            let bridge = try await world.startBridge(extraEnvironment: ["GATT2MQTT_HEALTH_FILE": file])
            try await bridge.waitForLine(containing: "health file \(file): touched every")
            let modified = try #require(try FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date)
            #expect(abs(modified.timeIntervalSinceNow) < 15)
        }
    }
}
