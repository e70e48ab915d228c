import BlueZ
import Foundation
import MQTT
import Peripherals
import TestSupport
import Testing

@testable import Bridge
@testable import DaemonConfiguration

/// Issue #59, item 3: the standard heart rate sensor declared as data (Fixtures/heart_rate.yaml, read as the gateway
/// reads a file of devices.d) against the written family: the same connects, notifications and commands replayed
/// into a session of each give the same MQTT messages, topic, payload, retain and QoS, byte for byte. Within one
/// notification the two publish their leaves in another order (the declaration's contact comes from the flags byte,
/// first; the written family says the rate first), which no subscriber can see across topics: each notification's
/// messages are compared as a set. `last_seen` is left out: the engine's clock says it, for both alike, at a moment of
/// its own (a timestamp, which two sessions cross a second apart).
struct HeartRateDeclarationEqualityTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/heart_rate.yaml").path
    private let id = "001122334488"

    /// The declaration, read with `hr` free (the gateway refuses the name: the written family has it).
    static func declared() throws -> DeclaredDriver {
        DeclaredDriver(declaration: try DeclarationReader.read(file: file, takenFamilies: []))
    }

    /// A session of each, on links alike, each with its own broker and counters.
    private struct Pair {
        let written: InMemorySession<ProfileSession<HeartRateFamilyProfile>>
        let declared: InMemorySession<ProfileSession<DeclaredFamilyProfile>>
        let links: (written: InMemoryLink, declared: InMemoryLink)
        let sinks: (written: RecordingSink, declared: RecordingSink)
        let metrics: (written: DeviceMetrics, declared: DeviceMetrics)
    }

    private func connectedPair(_ makeLink: () async -> InMemoryLink) async throws -> Pair {
        let links = (written: await makeLink(), declared: await makeLink())
        let sinks = (written: RecordingSink(), declared: RecordingSink())
        let metrics = (written: DeviceMetrics(), declared: DeviceMetrics())
        let writtenDriver = HeartRateDriver()
        let declaredDriver = try Self.declared()
        let written = await InMemorySession<ProfileSession<HeartRateFamilyProfile>>.connected(
            writtenDriver.session(
                for: links.written.device,
                context: InMemorySession<ProfileSession<HeartRateFamilyProfile>>.context(
                    link: links.written, sink: sinks.written, id: id, driver: writtenDriver, metrics: metrics.written)),
            sink: sinks.written)
        let declared = await InMemorySession<ProfileSession<DeclaredFamilyProfile>>.connected(
            declaredDriver.session(
                for: links.declared.device,
                context: InMemorySession<ProfileSession<DeclaredFamilyProfile>>.context(
                    link: links.declared, sink: sinks.declared, id: id, driver: declaredDriver,
                    metrics: metrics.declared)),
            sink: sinks.declared)
        return Pair(written: written, declared: declared, links: links, sinks: sinks, metrics: metrics)
    }

    /// Messages as a set (in one order): topic, payload, retain and QoS, and the MQTT 5 properties.
    private static func set(_ messages: ArraySlice<MQTTMessage>) -> [MQTTMessage] {
        family(messages).sorted {
            $0.topic != $1.topic ? $0.topic < $1.topic : $0.payload.lexicographicallyPrecedes($1.payload)
        }
    }

    /// What the family publishes, in order: all but `last_seen`.
    private static func family(_ messages: some Sequence<MQTTMessage>) -> [MQTTMessage] {
        messages.filter { !$0.topic.hasSuffix("/last_seen") }
    }

    @Test func theDeclarationReadsAsTheWrittenFamilysLeavesAndMatch() throws {
        let declared = try Self.declared()
        let written = HeartRateDriver()
        #expect(declared.family.rawValue == "hr")
        #expect(declared.liveStateLeaves == written.liveStateLeaves)
        #expect(declared.streamLeaves == written.streamLeaves)
        #expect(declared.keptLeaves == written.keptLeaves)
        var strap = BlueZDevice(address: "00:11:22:33:44:88", name: "anything")
        strap.serviceUUIDs = [HeartRateGATT.Service.heartRate]
        #expect(declared.matches(strap) && written.matches(strap))
        let belt = BlueZDevice(address: "00:11:22:33:44:89", name: "naviBelt")
        #expect(!declared.matches(belt) && !written.matches(belt))
    }

    /// Connects (Device Information, where it is worn, the battery), then the specification's examples and thousands
    /// of values made at random, well-formed and not: every flags byte, every length up to 13 bytes. Each gives the
    /// same messages from both, or nothing from both with a malformed value counted by both.
    @Test func replayedNotificationsGiveTheSameMessagesByteForByte() async throws {
        let pair = try await connectedPair { InMemoryDevices.heartRate() }
        #expect(
            Self.family(pair.sinks.written.messages) == Self.family(pair.sinks.declared.messages),
            "the connect's messages, in order")

        let measurement = HeartRateGATT.Characteristic.measurement
        var values: [[UInt8]] = [
            [0x16, 72, 0x55, 0x03], [0x16, 74, 0x3B, 0x03],
            [0x1F, 0x2C, 0x01, 0xE8, 0x03, 0x00, 0x04, 0x00, 0x02], [0x04, 61], [0x00, 62], [0x02, 63], [0x06, 64],
            [0x08, 70, 0xFF, 0xFF], [0xE6, 65], [0x10, 66], [0x10, 66, 0x01], [], [0x01, 0x2C], [0x08, 70],
            [0x16, 72, 0x01, 0x00], [0x16, 72, 0x00, 0x02], [0x16, 72, 0xFF, 0xFF],
        ]
        var random = SplitMix64(seed: 59)
        for _ in 0..<3000 {
            let flags = UInt8.random(in: 0...0xFF, using: &random)
            // Mostly the length the flags ask for (up to four RR intervals), sometimes a byte more or less.
            let fixed = 2 + (flags & 0x01 != 0 ? 1 : 0) + (flags & 0x08 != 0 ? 2 : 0)
            let wanted = fixed + (flags & 0x10 != 0 ? 2 * Int.random(in: 0...4, using: &random) : 0)
            let length = max(1, wanted + [0, 0, 0, 0, -1, 1].randomElement(using: &random)!)
            values.append([flags] + (1..<length).map { _ in UInt8.random(in: 0...0xFF, using: &random) })
        }
        var malformed = 0
        for bytes in values {
            let marks = (written: pair.sinks.written.mark, declared: pair.sinks.declared.mark)
            await pair.links.written.notify(measurement, bytes)
            await pair.links.declared.notify(measurement, bytes)
            let written = Self.set(pair.sinks.written.messages.dropFirst(marks.written))
            let declared = Self.set(pair.sinks.declared.messages.dropFirst(marks.declared))
            #expect(written == declared, "\(bytes): \(written.map(\.debugText)) ≠ \(declared.map(\.debugText))")
            if written.isEmpty { malformed += 1 }
        }
        let counters = (
            written: pair.metrics.written.snapshot["hr/\(id)"], declared: pair.metrics.declared.snapshot["hr/\(id)"]
        )
        #expect(counters.written?.decodeErrors == counters.declared?.decodeErrors)
        #expect(counters.written?.notifications == counters.declared?.notifications)
        // The corpus has both kinds in numbers (a value whose state did not change and whose rate is the same is not
        // malformed, but publishes its rate anyway: an empty set is a refusal).
        #expect(counters.written?.decodeErrors == malformed && malformed > 500 && values.count - malformed > 1000)

        // Going away clears the same state.
        let marks = (written: pair.sinks.written.mark, declared: pair.sinks.declared.mark)
        await pair.written.end()
        await pair.declared.end()
        #expect(
            Self.set(pair.sinks.written.messages.dropFirst(marks.written))
                == Self.set(pair.sinks.declared.messages.dropFirst(marks.declared)))
    }

    /// A place the specification reserves, and the control point: `reset_energy` writes the same byte, with response.
    @Test func aReservedLocationAndTheResetAreTheSame() async throws {
        let pair = try await connectedPair {
            let link = InMemoryDevices.heartRate()
            await link.setValue([9], of: HeartRateGATT.Characteristic.bodySensorLocation)
            return link
        }
        #expect(pair.sinks.written.payloads(on: "hr/\(id)/location") == ["reserved_9"])
        #expect(
            Self.family(pair.sinks.written.messages) == Self.family(pair.sinks.declared.messages),
            "the connect's messages, in order")
        let payload = try CommandPayload(bytes: Array("{}".utf8))
        #expect(
            try await pair.written.session.execute(
                try HeartRateDriver().parse(command: "reset_energy", payload: payload))
                == [:])
        #expect(
            try await pair.declared.session.execute(
                try Self.declared().parse(command: "reset_energy", payload: payload))
                == [:])
        #expect(
            await pair.links.written.writes == [
                .init(characteristic: HeartRateGATT.Characteristic.controlPoint, bytes: [0x01])
            ])
        #expect(await pair.links.written.writes == (await pair.links.declared.writes))
        await pair.written.end()
        await pair.declared.end()
    }
}

extension MQTTMessage {
    /// `topic payload (retained, QoS n)`, for a failure's message.
    fileprivate var debugText: String {
        "\(topic) \(String(decoding: payload, as: UTF8.self)) (\(retain ? "retained" : "not retained"), \(qos))"
    }
}
