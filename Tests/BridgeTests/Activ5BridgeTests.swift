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
        var telemetry = Activ5Telemetry(id: "a", topics: TopicMap(gateway: "gw"), thresholds: .init())
        var published: [Publication] = []
        for (index, newtons) in [2.0, 30, 31, 1, 28, 2].enumerated() {
            published += telemetry.force(newtons: newtons, at: Double(index) * 0.1)
        }
        #expect(
            published.filter { $0.topic == "a5/a/force" }.map(\.payload) == [
                "2.00", "30.00", "31.00", "1.00", "28.00", "2.00",
            ])
        #expect(
            published.filter { $0.topic == "a5/a/squeeze" }.map(\.payload) == [
                "squeezed", "released", "squeezed", "released",
            ])
        #expect(published.filter { $0.topic == "a5/a/squeeze" }.allSatisfy { $0.retain })
        #expect(published.filter { $0.topic == "a5/a/event" }.map(\.payload) == ["doubleSqueeze"])
    }

    @Test func imuIsJSONInGRadiansPerSecondAndSeconds() throws {
        let telemetry = Activ5Telemetry(id: "a", topics: TopicMap(gateway: "gw"), thresholds: .init())
        // The vendor's synthetic vector: 1 g, 2 g, 2047/4095 g; 250, 500, 125 °/s; 118032786 ticks × 15.25 µs.
        let sample = try Activ5IMUSample(bytes: [
            0xFF, 0x0F, 0xFE, 0x1F, 0xFF, 0x07, 0xFF, 0x0F, 0xFE, 0x1F, 0xFF, 0x07, 0x92, 0x09, 0x09, 0x07,
        ])
        let payload = telemetry.imu(sample).payload
        #expect(payload.contains(#""acceleration_g":{"x":1,"y":2,"z":0.4999}"#))
        #expect(payload.contains(#""angular_velocity_rad_s":{"x":4.3633,"y":8.7266,"z":2.1811}"#))
        #expect(payload.contains(#""timestamp_s":1799.99999"#))
    }
}
