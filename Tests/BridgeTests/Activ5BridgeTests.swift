import Peripherals
import Testing

@testable import Bridge

struct Activ5CommandParserTests {
    private func parse(_ name: String, _ text: String) throws -> Activ5BridgeCommand {
        try Activ5CommandParser.parse(command: name, payload: CommandPayload(bytes: Array(text.utf8)))
    }

    @Test(arguments: [
        ("start", "{}", Activ5BridgeCommand.start), ("stop", "", .stop), ("tare", "{}", .tare),
        ("imu", #"{"enabled":true}"#, .imu(enabled: true)), ("imu", "off", .imu(enabled: false)),
        ("evergreen", "true", .evergreen(enabled: true)),
    ])
    func commandsParse(name: String, text: String, expected: Activ5BridgeCommand) throws {
        #expect(try parse(name, text) == expected)
    }

    @Test func samplePeriodIsMillisecondsAsInt16() throws {
        guard case .samplePeriod(let period) = try parse("sample_period", #"{"period_ms":25}"#) else {
            throw CommandError(.invalidValue, "expected a sample period")
        }
        #expect(period.encoded() == [0x19, 0x00])
    }

    @Test(arguments: [
        ("start", #"{"now":true}"#, "unknown field 'now'"),
        ("imu", "{}", "'enabled' is required"),
        ("imu", #"{"enabled":"yes"}"#, "'enabled' must be true or false"),
        ("sample_period", #"{"period_ms":0}"#, "'period_ms' must be between 1 and 32767"),
        ("sample_period", #"{"period_ms":1.5}"#, "'period_ms' must be a whole number"),
        ("jump", "{}", "unknown Activ5 command"),
    ])
    func badInputNamesTheField(name: String, text: String, fragment: String) {
        #expect {
            _ = try parse(name, text)
        } throws: { ($0 as? CommandError)?.message.contains(fragment) == true }
    }
}

struct Activ5TelemetryTests {
    @Test func aDoubleSqueezeIsAnEventAndSqueezeIsRetainedState() {
        var telemetry = Activ5Telemetry(thresholds: .init())
        var leaves: [LeafOutput] = []
        for (index, newtons) in [2.0, 30, 31, 1, 28, 2].enumerated() {
            leaves += telemetry.force(newtons: newtons, at: Double(index) * 0.1)
        }
        func values(_ leaf: String) -> [String] {
            leaves.compactMap { if case .value(leaf, let payload, _) = $0 { payload } else { nil } }
        }
        #expect(values("force") == ["2.00", "30.00", "31.00", "1.00", "28.00", "2.00"])
        #expect(
            leaves.compactMap { if case .state("squeeze", let payload) = $0 { payload } else { nil } } == [
                "squeezed", "released", "squeezed", "released",
            ])
        #expect(leaves.contains(.value("event", "doubleSqueeze", qos: 1)))
        #expect(values("event") == ["doubleSqueeze"])
    }

    @Test func imuIsJSONInGRadiansPerSecondAndSeconds() throws {
        // The vendor's synthetic vector: 1 g, 2 g, 2047/4095 g; 250, 500, 125 °/s; 118032786 ticks × 15.25 µs.
        let sample = try Activ5IMUSample(bytes: [
            0xFF, 0x0F, 0xFE, 0x1F, 0xFF, 0x07, 0xFF, 0x0F, 0xFE, 0x1F, 0xFF, 0x07, 0x92, 0x09, 0x09, 0x07,
        ])
        guard case .value("imu", let payload, qos: 0) = Activ5Telemetry.imu(sample) else {
            Issue.record("an IMU sample is a value on imu")
            return
        }
        #expect(payload.contains(#""acceleration_g":{"x":1,"y":2,"z":0.4999}"#))
        #expect(payload.contains(#""angular_velocity_rad_s":{"x":4.3633,"y":8.7266,"z":2.1811}"#))
        #expect(payload.contains(#""timestamp_s":1799.99999"#))
    }

    /// A software tare zeroes on the last samples' mean, and stopping the stream forgets them.
    @Test func aSoftwareTareAveragesTheLastSamples() {
        var telemetry = Activ5Telemetry(thresholds: .init())
        let withoutSamples = telemetry.tareOnRecentSamples()
        #expect(!withoutSamples)
        for raw in [100, 102, 104] as [Int16] { _ = telemetry.take(.force(raw: raw), at: 0) }
        let tared = telemetry.tareOnRecentSamples()
        #expect(tared)
        let after = telemetry.take(.force(raw: 102), at: 0) ?? []
        #expect(after.first == .value("force", "0.00", qos: 0))
        _ = telemetry.setStreaming(false)
        let afterStopping = telemetry.tareOnRecentSamples()
        #expect(!afterStopping)
        let answer = telemetry.take(.legacy(.unknown("x")), at: 0)
        #expect(answer == nil, "an answer is not the stream's")
    }
}
