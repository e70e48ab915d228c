import Foundation
import Peripherals
import Testing

@testable import DaemonConfiguration

/// Device declarations (issue #59) as the project's YAML reader reads them: the model a declaration makes, and every
/// refusal with its file and line.
struct DeclarationReaderTests {
    static let taken: Set<String> = ["belt", "a5", "cpr", "grip", "hr"]

    static let speedAndCadence = """
        family: csc
        label: Speed and cadence sensor
        match:
          services: ["1816"]
          name_prefixes: [CADENCE]
          manufacturers: [0x0059]
        characteristics:
          - uuid: 2A5B
            service: "1816"
            access: notify
            topic: measurement
            fields:
              - {name: flags, type: u8, publish: false}
              - {name: wheel_revolutions, type: u32, if: flags.0}
              - {name: wheel_event_time, type: u16, if: flags.0, scale: 0.0009765625, unit: s}
          - uuid: 2A5D
            service: "1816"
            access: poll
            every_s: 600
            fields:
              - name: location
                type: u8
                values: {0: other, 4: front_wheel}
                bits:
                  - {name: low_bit, at: 0}
        """

    private func read(_ text: String) throws(DeclarationError) -> DeviceDeclaration {
        try DeclarationReader.read(text, file: "csc.yaml", takenFamilies: Self.taken)
    }

    @Test func aDeclarationMakesItsModel() throws {
        let declaration = try read(Self.speedAndCadence)
        #expect(declaration.family == "csc" && declaration.label == "Speed and cadence sensor")
        #expect(
            declaration.match
                == .init(
                    namePrefixes: ["CADENCE"], services: ["00001816-0000-1000-8000-00805f9b34fb"], manufacturers: [0x59]
                ))
        let (measurement, location) = (declaration.characteristics[0], declaration.characteristics[1])
        #expect(measurement.uuid == "00002a5b-0000-1000-8000-00805f9b34fb")
        #expect(measurement.access == .notify && measurement.topic == "measurement" && !measurement.retain)
        #expect(measurement.fields.map(\.name) == ["flags", "wheel_revolutions", "wheel_event_time"])
        #expect(!measurement.fields[0].published)
        #expect(measurement.fields[2].conditions == [.init(field: "flags", bit: 0, set: true)])
        #expect(measurement.fields[2].scale == DecimalScale(multiplier: 9_765_625, exponent: -10))
        #expect(measurement.fields[2].unit == "s")
        #expect(location.access == .poll(.seconds(600)) && location.retain, "a polled value is state: retained")
        #expect(location.fields[0].enumeration == [0: "other", 4: "front_wheel"])
        #expect(location.fields[0].bits == [.init(name: "low_bit", offset: 0)])
    }

    /// Heart Rate's rate is a uint8 or a uint16 by its flags' bit 0: one name, two alternatives.
    /// A value's Home Assistant entity as declared, for a field and for a bit field; `false`: none.
    @Test func aValuesEntityMayBeDeclared() throws {
        let text = Self.speedAndCadence
            .replacingOccurrences(
                of: "{name: wheel_revolutions, type: u32, if: flags.0}",
                with: "{name: wheel_revolutions, type: u32, if: flags.0, homeassistant: {state_class: total_increasing,"
                    + " icon: \"mdi:bike\", name: Wheel turns, enabled: false}}"
            )
            .replacingOccurrences(
                of: "{name: low_bit, at: 0}",
                with: "{name: low_bit, at: 0, homeassistant: {component: binary_sensor, device_class: problem}}"
            )
            .replacingOccurrences(
                of: "unit: s}", with: "unit: s, homeassistant: false}")
        let declaration = try read(text)
        let measurement = declaration.characteristics[0].fields
        #expect(
            measurement[1].homeAssistant
                == DeclaredEntity(stateClass: "total_increasing", enabled: false, name: "Wheel turns", icon: "mdi:bike")
        )
        #expect(measurement[2].homeAssistant == DeclaredEntity(shown: false))
        #expect(
            declaration.characteristics[1].fields[0].bits[0].homeAssistant
                == DeclaredEntity(component: "binary_sensor", deviceClass: "problem"))
    }

    @Test func aFieldMayHaveAnAlternativeUnderTheOppositeBit() throws {
        let text = """
            family: rate
            label: Rate
            match: {services: ["180D"]}
            characteristics:
              - uuid: 2A37
                service: 180D
                access: notify
                fields:
                  - {name: flags, type: u8, publish: false}
                  - {name: bpm, type: u8, if: not flags.0}
                  - {name: bpm, type: u16, if: flags.0}
                  - {name: rr, type: u16, if: flags.4, repeated: true, scale: 0.0009765625}
            """
        let fields = try read(text).characteristics[0].fields
        #expect(fields[1].conditions == [.init(field: "flags", bit: 0, set: false)])
        #expect(fields[2].conditions == [.init(field: "flags", bit: 0, set: true)])
    }

    /// Each refusal names the line to look at.
    @Test func everyRefusalNamesItsLine() {
        let replaced: [(String, String, Int, String)] = [
            ("family: csc", "family: hr", 1, "family 'hr' is a written family's"),
            (
                "family: csc", "family: Cadence", 1,
                "family must be 1 to 32 lower-case letters, digits or _, starting with a letter"
            ),
            (
                "  services: [\"1816\"]\n  name_prefixes: [CADENCE]\n  manufacturers: [0x0059]", "  services: []", 4,
                "match needs a name prefix, a service or a manufacturer: nothing would be recognised"
            ),
            ("  - uuid: 2A5B", "  - uuid: 2A5G", 8, "uuid: '2A5G' is not a Bluetooth UUID (2A37, or the full form)"),
            (
                "    service: \"1816\"\n    access: notify", "    service: \"180F\"\n    access: notify", 9,
                "the Battery and Device Information services are read for every declared device; declare neither"
            ),
            (
                "  - uuid: 2A5B", "  - uuid: 2a19", 8,
                "the Battery Level (2A19) is every declared device's `battery`; leave it out"
            ),
            (
                "    access: notify", "    access: subscribe", 10,
                "access must be read, poll, notify or indicate, not 'subscribe'"
            ),
            ("    every_s: 600", "    every_s: 0.5", 19, "poll needs every_s, a number of seconds from 1 to 86400"),
            (
                "      - {name: flags, type: u8, publish: false}", "      - {name: flags, type: u12, publish: false}",
                13,
                "type 'u12' is none of \(DeclaredFieldType.names)"
            ),
            ("type: u32, if: flags.0}", "type: u32, if: flags.8}", 14, "if: flags has no bit 8"),
            (
                "type: u32, if: flags.0}", "type: u32, if: flags.0, homeassistant: {state_class: sometimes}}", 14,
                "state_class must be measurement, total, total_increasing, none, not 'sometimes'"
            ),
            (
                "type: u32, if: flags.0}", "type: u32, if: flags.0, homeassistant: {component: binary_sensor}}", 14,
                "binary_sensor is for a one-bit bit field"
            ),
            (
                "type: u32, if: flags.0}", "type: u32, if: flags.0, homeassistant: true}", 14,
                "homeassistant must be false (no entity) or a mapping of component, device_class, state_class, enabled, name, icon"
            ),
            (
                "type: u32, if: flags.0}", "type: u32, if: flags.0, homeassistant: {icon: bike}}", 14,
                "icon must be mdi: and a Material Design icon's name (mdi:bike)"
            ),
            (
                "type: u32, if: flags.0}", "type: u32, if: flags.0, homeassistant: {colour: red}}", 14,
                "'colour' is no key of homeassistant (component, device_class, enabled, icon, name, state_class)"
            ),
            (
                "type: u32, if: flags.0}", "type: u32, if: flags.0, retain: true}", 14,
                "retain: a field of a characteristic with a topic is retained as its topic is"
            ),
            (
                "{name: flags, type: u8, publish: false}", "{name: flags, type: u8, publish: false, decimals: 1}", 13,
                "decimals is for a scaled or floating-point field"
            ),
            (
                "scale: 0.0009765625,", "scale: 0.0009765625, decimals: 12,", 15,
                "decimals must be a whole number from 0 to 9"
            ),
            (
                "{name: flags, type: u8, publish: false}",
                "{name: flags, type: u8, publish: false, unlisted: reserved_}",
                13,
                "unlisted is the prefix of a value `values` does not name (reserved_): lower-case letters, digits or _, with values"
            ),
            ("type: u32, if: flags.0}", "type: u32, if: later.0}", 14, "if: 'later' is no earlier integer field"),
            (
                "type: u32, if: flags.0}", "type: u32, repeated: true}", 14,
                "wheel_revolutions takes the rest of the value (repeated or utf8): it must be the last field"
            ),
            (
                "{name: wheel_event_time,", "{name: wheel_revolutions,", 15,
                "wheel_revolutions is given twice, and not as each other's alternative (if: f.N and if: not f.N)"
            ),
            (
                "    topic: measurement", "    topic: connection", 11,
                "topic must be a name of lower-case letters, digits or _ that no device topic has"
            ),
            (
                "    topic: measurement", "    topik: measurement", 11,
                "'topik' is no key of a characteristic (access, every_s, fields, retain, service, topic, uuid)"
            ),
            (
                "scale: 0.0009765625", "scale: 1e-3", 15,
                "scale must be a decimal number other than 0 (0.01), not '1e-3'"
            ),
            (
                "          - {name: low_bit, at: 0}", "          - {name: low_bit, at: 8}", 25,
                "low_bit: at and width must lie within the field's 8 bits"
            ),
            (
                "    topic: measurement", "    topic: [measurement", 11,
                "unterminated flow sequence ('[' without ']') before line 12, which is not indented deeper than the enclosing block"
            ),
            (
                "    topic: measurement\n", "    topic: location\n", 16,
                "topic leaf 'location' is published on line 8 too"
            ),
        ]
        for (original, replacement, line, message) in replaced {
            #expect(Self.speedAndCadence.contains(original), "\(original)")
            let text = Self.speedAndCadence.replacingOccurrences(of: original, with: replacement)
            #expect(throws: DeclarationError(file: "csc.yaml", line: line, message: message), "\(replacement)") {
                try read(text)
            }
        }
    }
}
