import BlueZ
import Peripherals
import Testing

@testable import Bridge

/// A family declared as data, served by a whole gateway in memory (issue #59): a custom thermometer with its own
/// 128-bit UUIDs, as a user would declare it, with no Swift of its own.
@Suite(.timeLimit(.minutes(1))) struct DeclaredFamilyTests {
    static let service = "0000aa00-1234-5678-9abc-def012345678"
    static let reading = "0000aa01-1234-5678-9abc-def012345678"
    static let place = "0000aa02-1234-5678-9abc-def012345678"
    static let counter = "0000aa03-1234-5678-9abc-def012345678"
    static let controlPoint = "0000aa04-1234-5678-9abc-def012345678"

    /// A calibration offset in hundredths of a degree, written to the control point with op code 0x01 and answered
    /// by an indication `80 01 <result>`; a plain write with no answer to wait for.
    static let calibrate: DeclaredCommand = {
        var command = DeclaredCommand(
            name: "calibrate", characteristic: controlPoint, service: service,
            parts: [
                .constant([0x01]),
                .field(
                    name: "offset", type: .signed(bytes: 2, bigEndian: false),
                    scale: DecimalScale(multiplier: 1, exponent: -2), offset: 0, range: -10...10),
            ])
        command.answer = DeclaredCommand.Answer(
            characteristic: controlPoint, prefix: [0x80, 0x01], resultAt: 2, success: 1,
            results: [3: "invalid_parameter"], timeout: .seconds(2))
        return command
    }()
    static let beep = DeclaredCommand(
        name: "beep", characteristic: controlPoint, service: service, parts: [.constant([0x02])])

    /// Readings notified as one JSON (a flag says whether humidity is there), where it hangs read once, and a
    /// counter polled every second.
    static let thermometer = DeviceDeclaration(
        family: "thermo", label: "Lab thermometer", match: .init(namePrefixes: ["THERMO-"]),
        characteristics: [
            DeclaredCharacteristic(
                uuid: reading, service: service, access: .notify, topic: "reading", retain: false,
                fields: [
                    field("flags", .unsigned(bytes: 1, bigEndian: false)) { $0.published = false },
                    field("temperature", .signed(bytes: 2, bigEndian: false)) {
                        $0.scale = DecimalScale(multiplier: 1, exponent: -2)
                        $0.unit = "°C"
                    },
                    field("humidity", .unsigned(bytes: 2, bigEndian: false)) {
                        $0.conditions = [.init(field: "flags", bit: 0, set: true)]
                        $0.scale = DecimalScale(multiplier: 1, exponent: -2)
                        $0.unit = "%"
                    },
                ]),
            DeclaredCharacteristic(
                uuid: place, service: service, access: .read, retain: true,
                fields: [
                    field("place", .unsigned(bytes: 1, bigEndian: false)) {
                        $0.enumeration = [0: "indoor", 1: "outdoor"]
                    }
                ]),
            DeclaredCharacteristic(
                uuid: counter, service: service, access: .poll(.seconds(1)), retain: true,
                fields: [field("samples", .unsigned(bytes: 4, bigEndian: false))]),
        ],
        commands: [calibrate, beep])

    static func field(
        _ name: String, _ type: DeclaredFieldType, _ configure: (inout DeclaredField) -> Void = { _ in }
    ) -> DeclaredField {
        var field = DeclaredField(name: name, type: type)
        configure(&field)
        return field
    }

    static func link(address: String = "00:11:22:33:44:D1", samples: UInt32 = 7) -> InMemoryLink {
        InMemoryLink(
            device: BlueZDevice(address: address, name: "THERMO-1"), services: [service],
            values: [
                reading: [], place: [1], controlPoint: [],
                counter: withUnsafeBytes(of: samples.littleEndian, Array.init),
            ],
            answer: { write in
                // The control point refuses an offset of exactly 0 (nothing to calibrate), takes any other.
                guard write.characteristic == controlPoint, write.bytes.first == 0x01 else { return [] }
                return [(controlPoint, [0x80, 0x01, write.bytes.dropFirst() == [0, 0] ? 0x03 : 0x01])]
            })
    }

    @Test func aDeclaredDeviceIsRecognisedConnectedAndItsValuesPublishedAsDeclared() async throws {
        let link = Self.link()
        try await InMemoryGateway.with(configure: { $0.declarations = [Self.thermometer] }) { gateway in
            let id = await gateway.connect(link, family: "thermo")
            // Read once at connect, retained: the enumeration's name.
            await gateway.probe.next(on: "thermo/\(id)/place") { $0 == "outdoor" }
            #expect(gateway.broker.retained("thermo/\(id)/place")?.payloadString == "outdoor")
            // The poll's first read at connect.
            await gateway.probe.next(on: "thermo/\(id)/samples") { $0 == "7" }

            // With humidity (flags bit 0), then without: one JSON each, not retained, decimals exact.
            await link.notify(Self.reading, [0x01, 0x6A, 0x08, 0x39, 0x12])
            await gateway.probe.next(on: "thermo/\(id)/reading") { $0 == #"{"temperature":21.54,"humidity":46.65}"# }
            await link.notify(Self.reading, [0x00, 0xF6, 0xFF])
            await gateway.probe.next(on: "thermo/\(id)/reading") { $0 == #"{"temperature":-0.1}"# }
            #expect(gateway.broker.retained("thermo/\(id)/reading") == nil, "a stream is not retained")

            // Bytes the declaration does not explain: counted and logged, nothing published.
            await link.notify(Self.reading, [0x01, 0x6A])
            await gateway.log.waitForLine(containing: "malformed notification")
            #expect(gateway.probe.payloads(on: "thermo/\(id)/reading").count == 2)
        }
    }

    @Test func aPolledValueIsReadAgainAtItsInterval() async throws {
        let link = Self.link(samples: 7)
        try await InMemoryGateway.with(configure: { $0.declarations = [Self.thermometer] }) { gateway in
            let id = await gateway.connect(link, family: "thermo")
            await gateway.probe.next(on: "thermo/\(id)/samples") { $0 == "7" }
            await link.setValue(withUnsafeBytes(of: UInt32(8).littleEndian, Array.init), of: Self.counter)
            await gateway.probe.next(on: "thermo/\(id)/samples") { $0 == "8" }
        }
    }

    @Test func aControlPointCommandIsWrittenAndItsAnswerReplied() async throws {
        let link = Self.link()
        try await InMemoryGateway.with(configure: { $0.declarations = [Self.thermometer] }) { gateway in
            let id = await gateway.connect(link, family: "thermo")
            // −1.5 °C in hundredths, a sint16 after the op code; the indication says success.
            try gateway.publish("thermo/\(id)/cmd/calibrate", #"{"offset":-1.5}"#)
            await gateway.probe.next(on: "thermo/\(id)/reply") { $0.contains(#""ok":true"#) }
            #expect(await link.writes == [.init(characteristic: Self.controlPoint, bytes: [0x01, 0x6A, 0xFF])])
            // The device's refusal, by the result code's name.
            try gateway.publish("thermo/\(id)/cmd/calibrate", #"{"offset":0}"#)
            await gateway.probe.next(on: "thermo/\(id)/reply") { $0.contains("invalid_parameter (3)") }
            // A plain write: its own success is the reply.
            try gateway.publish("thermo/\(id)/cmd/beep", "{}")
            await gateway.probe.next(on: "thermo/\(id)/reply") { $0.contains(#""ok":true"#) && $0.contains("beep") }
            #expect(await link.writes.last == .init(characteristic: Self.controlPoint, bytes: [0x02]))
        }
    }

    @Test func aBadPayloadOrAnUnknownCommandIsRefusedAndNeverWritten() async throws {
        let link = Self.link()
        try await InMemoryGateway.with(configure: { $0.declarations = [Self.thermometer] }) { gateway in
            let id = await gateway.connect(link, family: "thermo")
            for (name, payload, said) in [
                ("calibrate", #"{"offset":11}"#, "'offset' must be from -10 to 10"),
                ("calibrate", #"{"offset":0.005}"#, "'offset' must be a whole number of its steps"),
                ("calibrate", "{}", "'offset' is missing"),
                ("calibrate", #"{"offset":"1"}"#, "'offset' must be a number"),
                ("calibrate", #"{"offset":1,"gain":2}"#, "gain"),
                ("reset", "{}", "unknown Lab thermometer command 'reset'; known: calibrate, beep"),
            ] {
                let mark = gateway.probe.mark
                try gateway.publish("thermo/\(id)/cmd/\(name)", payload)
                await gateway.probe.next(on: "thermo/\(id)/reply", after: mark) { $0.contains(said) }
            }
            #expect(await link.writes.isEmpty, "never a GATT write")
        }
    }

    @Test func homeAssistantGetsAnEntityPerValueFromTheDeclaration() throws {
        let driver = DeclaredDriver(declaration: Self.thermometer)
        let entities = Dictionary(uniqueKeysWithValues: driver.homeAssistant.entities.map { ($0.object, $0) })
        let temperature = try #require(entities["reading_temperature"])
        #expect(temperature.topics == ["state_topic": "reading"])
        // A reading without the member keeps the number shown (Home Assistant ignores an empty text for it); the empty
        // payload of a cleared state is unknown.
        #expect(
            temperature.fields["value_template"]
                == .string(
                    "{{ value_json.temperature if value_json is defined and 'temperature' in value_json else ('' if value_json is defined else None) }}"
                ))
        #expect(temperature.fields["unit_of_measurement"] == .string("°C"))
        #expect(temperature.isFastStream, "a stream that is not retained")
        let place = try #require(entities["place"])
        #expect(place.fields["entity_category"] != nil && place.fields["state_class"] == nil, "read once: diagnostic")
        #expect(entities["samples"]?.fields["state_class"] == .string("measurement"))
        #expect(entities["battery"] != nil, "every declared device's battery")
        // Commands: one number a number entity (its range, its scale the step), one of constant bytes a button.
        let calibrate = try #require(entities["calibrate"])
        #expect(calibrate.component == "number" && calibrate.topics == ["command_topic": "cmd/calibrate"])
        #expect(calibrate.fields["min"] == .number(-10) && calibrate.fields["max"] == .number(10))
        #expect(calibrate.fields["step"] == .number(0.01))
        #expect(calibrate.fields["command_template"] == .string(#"{"offset": {{ value }}}"#))
        let beep = try #require(entities["beep"])
        #expect(beep.component == "button" && beep.fields["payload_press"] == .string("{}"))
        #expect(driver.streamLeaves == ["reading"] && driver.keptLeaves == ["place"])
        #expect(driver.liveStateLeaves == ["samples", "battery"])
    }

    /// What a value's `homeassistant:` declares replaces what is derived: a stream's temperature enabled with its
    /// device class, the place with an icon and no state class, the counter disabled, the humidity with no entity.
    @Test func aValuesDeclaredEntityReplacesTheDerivedOne() throws {
        var declaration = Self.thermometer
        declaration.characteristics[0].fields[1].homeAssistant = DeclaredEntity(
            deviceClass: "temperature", enabled: true)
        declaration.characteristics[0].fields[2].homeAssistant = DeclaredEntity(shown: false)
        declaration.characteristics[1].fields[0].homeAssistant = DeclaredEntity(
            stateClass: "none", name: "Where it hangs", icon: "mdi:home-thermometer")
        declaration.characteristics[2].fields[0].homeAssistant = DeclaredEntity(
            stateClass: "total_increasing", enabled: false)
        let entities = Dictionary(
            uniqueKeysWithValues: DeclaredDriver(declaration: declaration).homeAssistant.entities.map {
                ($0.object, $0)
            })
        let temperature = try #require(entities["reading_temperature"])
        #expect(temperature.fields["device_class"] == .string("temperature"))
        #expect(!temperature.isFastStream, "declared enabled: a stream Home Assistant adds enabled")
        #expect(entities["reading_humidity"] == nil, "homeassistant: false")
        let place = try #require(entities["place"])
        #expect(
            place.fields["name"] == .string("Where it hangs") && place.fields["icon"] == .string("mdi:home-thermometer")
        )
        #expect(place.fields["state_class"] == nil)
        let samples = try #require(entities["samples"])
        #expect(samples.fields["state_class"] == .string("total_increasing"))
        #expect(samples.fields["enabled_by_default"] == .bool(false))
        // Undeclared, as derived.
        let derived = Dictionary(
            uniqueKeysWithValues: DeclaredDriver(declaration: Self.thermometer).homeAssistant.entities.map {
                ($0.object, $0)
            })
        #expect(derived["reading_humidity"] != nil && derived["reading_temperature"]?.isFastStream == true)
    }

    @Test func aDeviceIsRecognisedByItsNamePrefixAdvertisedServiceOrManufacturer() {
        var declaration = Self.thermometer
        declaration.match = .init(namePrefixes: ["THERMO-"], services: [Self.service], manufacturers: [0x0059])
        let driver = DeclaredDriver(declaration: declaration)
        #expect(driver.matches(BlueZDevice(address: "00:11:22:33:44:D2", name: "THERMO-9")))
        var advertising = BlueZDevice(address: "00:11:22:33:44:D3", name: "Kitchen")
        advertising.serviceUUIDs = [Self.service.uppercased()]
        #expect(driver.matches(advertising))
        #expect(
            driver.matches(BlueZDevice(address: "00:11:22:33:44:D5", name: nil, manufacturerIDs: [0x004C, 0x0059])))
        #expect(
            !driver.matches(BlueZDevice(address: "00:11:22:33:44:D4", name: "thermo-lower", manufacturerIDs: [0x004C])))
    }
}
