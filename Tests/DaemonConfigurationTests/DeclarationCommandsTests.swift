import Foundation
import Peripherals
import Testing

@testable import DaemonConfiguration

/// A declaration's commands (issue #59): each write's value, its numbers' ranges, the control point's answer, and
/// every refusal with its line.
struct DeclarationCommandsTests {
    static func declaration(commands: String) -> String {
        """
        family: trainer
        label: Trainer
        match: {services: ["1826"]}
        characteristics:
          - uuid: 2AD2
            service: "1826"
            access: notify
            fields: [{name: power, type: s16}]
        commands:
        \(commands)
        """
    }

    private func read(_ commands: String) throws(DeclarationError) -> [DeclaredCommand] {
        try DeclarationReader.read(
            Self.declaration(commands: commands), file: "t.yaml", takenFamilies: DeclarationReaderTests.taken
        ).commands
    }

    @Test func aControlPointCommandReadsWhole() throws {
        let commands = try read(
            """
              - name: set_target_power
                uuid: 2AD9
                service: "1826"
                value:
                  - {const: 0x05}
                  - {field: watts, type: s16, min: 0, max: 4000}
                answer:
                  uuid: 2AD9
                  prefix: [0x80, 0x05]
                  result_at: 2
                  success: 1
                  results: {1: success, 3: invalid_parameter}
                  timeout_s: 2
              - name: reset
                uuid: 2AD9
                service: "1826"
                write: command
                value: [{const: [0x01, 0x00]}]
            """)
        #expect(commands.map(\.name) == ["set_target_power", "reset"])
        let power = try #require(commands.first)
        #expect(power.characteristic == "00002ad9-0000-1000-8000-00805f9b34fb" && power.withResponse)
        #expect(
            power.parts == [
                .constant([0x05]),
                .field(
                    name: "watts", type: .signed(bytes: 2, bigEndian: false), scale: .one, offset: 0, range: 0...4000),
            ])
        #expect(
            power.answer
                == DeclaredCommand.Answer(
                    characteristic: "00002ad9-0000-1000-8000-00805f9b34fb", prefix: [0x80, 0x05], resultAt: 2,
                    success: 1, results: [1: "success", 3: "invalid_parameter"], timeout: .seconds(2)))
        #expect(commands.last?.withResponse == false && commands.last?.answer == nil)
        #expect(commands.last?.parts == [.constant([0x01, 0x00])])
    }

    @Test(arguments: [
        ("  - {name: a, uuid: 2AD9, service: \"1826\", value: [{field: w, type: s16}]}", 10, "needs min and max"),
        ("  - {name: a, uuid: 2AD9, service: \"1826\", value: [{const: 256}]}", 10, "must be bytes"),
        (
            "  - {name: a, uuid: 2AD9, service: \"1826\", value: [{field: w, type: utf8, min: 0, max: 1}]}", 10,
            "an integer (u8 … s64) or f32 or f64"
        ),
        (
            "  - {name: a, uuid: 2AD9, service: \"1826\", value: [{field: w, type: u8, min: 5, max: 1}]}", 10,
            "min must not be above max"
        ),
        ("  - {name: A, uuid: 2AD9, service: \"1826\", value: [{const: 1}]}", 10, "name must be"),
        ("  - {name: a, uuid: 2AD9, service: \"1826\", value: []}", 10, "one or more parts"),
        ("  - {name: a, uuid: 2AD9, service: \"1826\", value: [{const: 1}], write: maybe}", 10, "request or command"),
        (
            "  - {name: a, uuid: 2AD9, service: \"1826\", value: [{const: 1}], answer: {uuid: 2AD2, prefix: 1, result_at: 1, success: 1}}",
            10, "declared among characteristics"
        ),
        (
            "  - {name: a, uuid: 2AD9, service: \"1826\", value: [{const: 1}], answer: {uuid: 2AD9, prefix: [1, 2], result_at: 1, success: 1}}",
            10, "after the prefix"
        ),
        (
            "  - {name: a, uuid: 2AD9, service: \"1826\", value: [{const: 1}]}\n  - {name: a, uuid: 2AD9, service: \"1826\", value: [{const: 2}]}",
            11, "given twice"
        ),
        (
            "  - {name: power, uuid: 2AD9, service: \"1826\", value: [{const: 1}]}", 10,
            "command 'power' has a value's name: their Home Assistant entities would share it"
        ),
    ])
    func aBadCommandIsRefusedWithItsLine(commands: String, line: Int, message: String) {
        do {
            _ = try read(commands)
            Issue.record("accepted: \(commands)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    /// The shipped Cycling Speed and Cadence declaration's SC Control Point commands.
    @Test func theShippedSpeedAndCadenceSensorTakesTheSCControlPointsCommands() throws {
        let file = StandardDeclarationsTests.folder.appendingPathComponent("cycling_speed_cadence.yaml")
        let csc = try DeclarationReader.read(
            try String(contentsOf: file, encoding: .utf8), file: "csc", takenFamilies: DeclarationReaderTests.taken)
        let set = try #require(csc.commands.first { $0.name == "set_wheel_revolutions" })
        #expect(try set.encode(["revolutions": 1000]) == [0x01, 0xE8, 0x03, 0x00, 0x00])
        #expect(
            set.answer?.answers(SCControlPoint.response(to: 0x01, .success), on: SCControlPoint.characteristic) == true)
        let location = try #require(csc.commands.first { $0.name == "update_location" })
        #expect(try location.encode(["location": 5]) == [0x03, 0x05])
        #expect(location.answer?.results[2] == "op_code_not_supported")
    }
}
