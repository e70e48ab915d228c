import Peripherals
import Testing

@testable import Bridge

struct BeltCommandParserTests {
    private func parse(_ name: String, _ text: String) throws -> BeltCommand {
        try BeltCommandParser.parse(command: name, payload: CommandPayload(bytes: Array(text.utf8)))
    }

    @Test(arguments: [
        ("app", [0x01, 0x81, 0x03, 0x00] as [UInt8]),
        ("{\"mode\":\"wait\"}", [0x01, 0x81, 0x01, 0x00]),
        ("\"compass\"", [0x01, 0x81, 0x02, 0x00]),
        ("standby", [0x01, 0x81, 0x00, 0x00]),
    ])
    func modeCommandsBecomeTheFourByteModeChange(text: String, bytes: [UInt8]) throws {
        let command = try parse("mode", text)
        #expect(command.encoded() == bytes)
        #expect(command.characteristicUUID == BeltGATT.Characteristic.parameterRequest)
    }

    @Test(arguments: ["sleep", "calibration", "{\"mode\":3}", ""])
    func refusesModesTheBridgeCannotSet(text: String) {
        #expect(throws: CommandError.self) { _ = try parse("mode", text) }
    }

    @Test func vibrateAtABearingIsTheNavigationChannelConfiguration() throws {
        let command = try parse("vibrate", #"{"direction":90,"orientation":"bearing","pattern":"navigation","intensity":40}"#)
        // channel 2, continuous, 40 %, reserved, bearing 90, reserved, forever, 500 ms, start 0, not exclusive, keep others
        #expect(command.encoded() == [0x02, 0x01, 0x28, 0x00, 0x00, 0x00, 0x03, 0x5A, 0x00, 0x00, 0x00, 0x00, 0xF4, 0x01, 0x00, 0x00, 0x00, 0x00])
        #expect(command.characteristicUUID == BeltGATT.Characteristic.vibrationCommand)
    }

    @Test func vibrateDefaultsToTheBeltIntensityAndWrapsNegativeAngles() throws {
        let command = try parse("vibrate", #"{"direction":-90,"orientation":"angle"}"#)
        let bytes = command.encoded()
        #expect(Array(bytes[2...3]) == [0xAA, 0xAA])
        #expect(bytes[6] == 0x02)
        #expect(Array(bytes[7...8]) == [0x0E, 0x01])  // 270
    }

    @Test(arguments: [
        (#"{"orientation":"bearing"}"#, "'direction' is required"),
        (#"{"direction":90,"orientation":"north"}"#, "'orientation' must be"),
        (#"{"direction":90,"pattern":"buzz"}"#, "'pattern' 'buzz' is unknown"),
        (#"{"direction":90,"intensity":101}"#, "'intensity' must be between 0 and 100"),
        (#"{"direction":90,"channel":6}"#, "'channel' must be between 0 and 5"),
        (#"{"direction":"east"}"#, "'direction' must be a whole number"),
        (#"{"direction":90,"speed":3}"#, "unknown field 'speed'"),
    ])
    func vibrateErrorsNameTheField(text: String, message: String) {
        #expect {
            _ = try parse("vibrate", text)
        } throws: { error in
            (error as? CommandError)?.code == .invalidValue && (error as? CommandError)?.message.contains(message) == true
        }
    }

    @Test func unknownCommandsAreRefused() {
        #expect {
            _ = try parse("fly", "{}")
        } throws: { ($0 as? CommandError)?.code == .unknownCommand }
    }
}
