import BlueZ
import Peripherals
import Testing

@testable import Bridge

/// Issue #45, item 4: the standard heart rate sensor, the first family written for the session engine, driven in
/// memory from connect to commands. The measurement bytes are the Heart Rate Service specification's layout (flags,
/// then the rate in 8 or 16 bits, energy expended, RR intervals in 1/1024 s), written out by hand here.
struct HeartRateSessionTests {
    private let id = "001122334488"
    private let sink = RecordingSink()
    private let metrics = DeviceMetrics()
    private let driver = HeartRateDriver()

    private func connected(_ link: InMemoryLink) async -> InMemorySession<ProfileSession<HeartRateFamilyProfile>> {
        let context = InMemorySession<ProfileSession<HeartRateFamilyProfile>>.context(
            link: link, sink: sink, id: id, driver: driver, metrics: metrics)
        return await .connected(
            driver.session(for: link.device, context: context), sink: sink)
    }

    private func execute(_ name: String, on session: ProfileSession<HeartRateFamilyProfile>) async throws(CommandError)
        -> [String: JSONValue]
    {
        try await session.execute(try driver.parse(command: name, payload: CommandPayload(bytes: Array("{}".utf8))))
    }

    private func topic(_ leaf: String) -> String { "hr/\(id)/\(leaf)" }

    @Test func connectingReadsWhereItIsWornAndItsBattery() async throws {
        let link = InMemoryDevices.heartRate()
        let strap = await connected(link)
        #expect(sink.payloads(on: topic("location")) == ["chest"])
        #expect(sink.payloads(on: topic("battery")) == [#"{"level":90}"#])
        let info = try #require(sink.payloads(on: topic("info")).last)
        #expect(info == #"{"address":"00:11:22:33:44:88","family":"hr","gateway":"test","name":"HRM-SIM"}"#)
        await strap.end()
    }

    @Test func aMeasurementIsItsRateItsRRIntervalsAndItsContact() async throws {
        let link = InMemoryDevices.heartRate()
        let strap = await connected(link)
        // Flags 0x16: 8-bit rate, contact supported and detected, no energy, RR present. 72 bpm, RR 0x0355 = 853/1024 s.
        await link.notify(HeartRateGATT.Characteristic.measurement, [0x16, 72, 0x55, 0x03])
        await link.notify(HeartRateGATT.Characteristic.measurement, [0x16, 74, 0x3B, 0x03])
        #expect(sink.payloads(on: topic("bpm")) == ["72", "74"])
        #expect(sink.payloads(on: topic("rr")) == ["[833]", "[807.6]"])
        // State is said when it changes.
        #expect(sink.payloads(on: topic("contact")) == ["detected"])
        #expect(sink.payloads(on: topic("energy")).isEmpty)
        let bpm = try #require(sink.messages.last { $0.topic == topic("bpm") })
        #expect(!bpm.retain && bpm.qos == .atMostOnce)
        await strap.end()
    }

    @Test func aSixteenBitRateWithEnergyAndTwoIntervals() async throws {
        let link = InMemoryDevices.heartRate()
        let strap = await connected(link)
        // Flags 0x1F: 16-bit rate (300), contact detected, energy 1000 kJ, RR 1024 and 512 (1 s and 0.5 s).
        await link.notify(
            HeartRateGATT.Characteristic.measurement, [0x1F, 0x2C, 0x01, 0xE8, 0x03, 0x00, 0x04, 0x00, 0x02])
        // Flags 0x04: contact supported, not detected; no RR, no energy.
        await link.notify(HeartRateGATT.Characteristic.measurement, [0x04, 61])
        // Flags 0x00: a strap that cannot tell contact.
        await link.notify(HeartRateGATT.Characteristic.measurement, [0x00, 62])
        #expect(sink.payloads(on: topic("bpm")) == ["300", "61", "62"])
        #expect(sink.payloads(on: topic("rr")) == ["[1000,500]"])
        #expect(sink.payloads(on: topic("energy")) == ["1000"])
        #expect(sink.payloads(on: topic("contact")) == ["detected", "not_detected", "unsupported"])
        let energy = try #require(sink.messages.last { $0.topic == topic("energy") })
        #expect(energy.retain && energy.qos == .atLeastOnce)
        await strap.end()
    }

    @Test func malformedMeasurementsAreCountedAndPublishNothing() async throws {
        let link = InMemoryDevices.heartRate()
        let strap = await connected(link)
        // Empty; a 16-bit rate cut short; energy announced and missing.
        for bytes: [UInt8] in [[], [0x01, 0x2C], [0x08, 70]] {
            await link.notify(HeartRateGATT.Characteristic.measurement, bytes)
        }
        #expect(sink.payloads(on: topic("bpm")).isEmpty)
        let counters = metrics.snapshot["hr/\(id)"]
        #expect(counters?.decodeErrors == 3)
        #expect(counters?.notifications == 5, "three measurements and the two reads at connect (location, battery)")
        await strap.end()
    }

    @Test func resetEnergyWritesTheControlPointsOneCommand() async throws {
        let link = InMemoryDevices.heartRate()
        let strap = await connected(link)
        #expect(try await execute("reset_energy", on: strap.session) == [:])
        #expect(await link.writes == [.init(characteristic: HeartRateGATT.Characteristic.controlPoint, bytes: [0x01])])
        await strap.end()
    }

    @Test func aStrapWithoutAControlPointRefusesTheResetAndIsNotWritten() async throws {
        let link = InMemoryDevices.heartRate(controlPoint: false)
        let strap = await connected(link)
        await #expect(throws: CommandError.self) { try await execute("reset_energy", on: strap.session) }
        do {
            _ = try await execute("reset_energy", on: strap.session)
        } catch {
            #expect(error.code == .invalidState)
        }
        #expect(await link.writes.isEmpty)
        await strap.end()
    }

    @Test func commandsAreCheckedWithoutADevice() {
        #expect(throws: CommandError.self) { try driver.parse(command: "vibrate", payload: CommandPayload(bytes: [])) }
        #expect(throws: CommandError.self) {
            try driver.parse(command: "reset_energy", payload: CommandPayload(bytes: Array(#"{"now":1}"#.utf8)))
        }
    }

    /// The live state would lie while the strap is away: cleared when the link ends; where it is worn stays.
    @Test func theLinksEndClearsContactEnergyAndBattery() async throws {
        let link = InMemoryDevices.heartRate()
        let strap = await connected(link)
        // Flags 0x0E: contact detected, energy 16 kJ.
        await link.notify(HeartRateGATT.Characteristic.measurement, [0x0E, 70, 0x10, 0x00])
        #expect(sink.payloads(on: topic("energy")) == ["16"])
        await strap.end()
        for leaf in ["contact", "energy", "battery"] { #expect(sink.payloads(on: topic(leaf)).last == "", "\(leaf)") }
        #expect(sink.payloads(on: topic("location")) == ["chest"])
        #expect(strap.session.core.connection.count == 0)
    }

    @Test func onlyDevicesThatAdvertiseTheServiceAreHeartRateSensors() {
        #expect(driver.matches(InMemoryDevices.heartRate().device))
        #expect(driver.matches(BlueZDevice(address: "00:00:00:00:00:01", name: "x", serviceUUIDs: ["180D"])))
        #expect(
            driver.matches(
                BlueZDevice(
                    address: "00:00:00:00:00:01", name: nil,
                    serviceUUIDs: ["0000180d-0000-1000-8000-00805f9b34fb"])))
        #expect(!driver.matches(BlueZDevice(address: "00:00:00:00:00:02", name: "HRM-SIM")))
    }
}
