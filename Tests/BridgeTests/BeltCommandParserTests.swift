import Peripherals
import Testing

@testable import Bridge

struct BeltCommandParserTests {
    private func parse(_ name: String, _ text: String) throws -> BeltCommand {
        switch try BeltCommandParser.parse(command: name, payload: CommandPayload(bytes: Array(text.utf8))) {
        case .write(let command), .vibration(let command, switchToApp: _): return command
        default: throw CommandError(.unknownCommand, "\(name) is not a write")
        }
    }

    @Test func vibrationsCarryTheirSwitchToAppChoice() throws {
        for (name, text) in [
            ("vibrate", #"{"direction":90,"switch_to_app":true}"#),
            (
                "channel",
                #"{"channel":1,"pattern":"continuous","orientation_type":"angle","orientation":90,"period_ms":500,"switch_to_app":true}"#
            ),
            (
                "pulse",
                #"{"channel":2,"orientation_type":"angle","orientation":90,"on_duration_ms":100,"pulse_period_ms":300,"series_period_ms":2000,"switch_to_app":true}"#
            ),
        ] {
            let parsed = try BeltCommandParser.parse(command: name, payload: CommandPayload(bytes: Array(text.utf8)))
            guard case .vibration(_, let switchToApp) = parsed else {
                Issue.record("\(name) is not a vibration")
                continue
            }
            #expect(switchToApp, "\(name)")
        }
        guard
            case .vibration(_, false) = try BeltCommandParser.parse(
                command: "vibrate", payload: CommandPayload(bytes: Array(#"{"direction":1}"#.utf8)))
        else {
            Issue.record("switch_to_app defaults to false")
            return
        }
        #expect(throws: CommandError.self) {
            try BeltCommandParser.parse(
                command: "vibrate", payload: CommandPayload(bytes: Array(#"{"direction":1,"switch_to_app":1}"#.utf8)))
        }
    }

    /// FSLib-Android's rule: outside app mode only a limited signal on channel 0 that leaves the others alone plays.
    @Test func onlyALimitedChannelZeroSignalPlaysOutsideAppMode() throws {
        #expect(try parse("vibrate", #"{"direction":90,"pattern":"direction_notification"}"#).playsOutsideAppMode)
        #expect(try !parse("vibrate", #"{"direction":90,"pattern":"navigation"}"#).playsOutsideAppMode)
        #expect(
            try !parse("vibrate", #"{"direction":90,"pattern":"direction_notification","channel":1}"#)
                .playsOutsideAppMode)
        let limited =
            #"{"channel":0,"pattern":"single_long","orientation_type":"angle","orientation":90,"period_ms":500,"iterations":2"#
        #expect(try parse("channel", limited + "}").playsOutsideAppMode)
        #expect(try !parse("channel", limited + #","clear_others":true}"#).playsOutsideAppMode)
        #expect(try parse("stop", "{}").playsOutsideAppMode)
        #expect(try parse("mode", "app").playsOutsideAppMode)
    }

    /// Channels 4 and 5 need firmware 44 (FSLib-Android: firmware 43 plays 4 vibrations at once).
    @Test func channelsFourAndFiveNeedFirmware44() throws {
        let channel = { (number: Int) in
            #"{"channel":\#(number),"pattern":"continuous","orientation_type":"angle","orientation":90,"period_ms":500}"#
        }
        #expect(try parse("channel", channel(3)).minimumFirmware == nil)
        #expect(try parse("channel", channel(4)).minimumFirmware == 44)
        #expect(try parse("vibrate", #"{"direction":1,"channel":5}"#).minimumFirmware == 44)
        #expect(try parse("stop", #"{"channel":5}"#).minimumFirmware == 44)
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
        let command = try parse(
            "vibrate", #"{"direction":90,"orientation":"bearing","pattern":"navigation","intensity":40}"#)
        // channel 2, continuous, 40 %, reserved, bearing 90, reserved, forever, 500 ms, start 0, not exclusive, keep others
        #expect(
            command.encoded() == [
                0x02, 0x01, 0x28, 0x00, 0x00, 0x00, 0x03, 0x5A, 0x00, 0x00, 0x00, 0x00, 0xF4, 0x01, 0x00, 0x00, 0x00,
                0x00,
            ])
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
            (error as? CommandError)?.code == .invalidValue
                && (error as? CommandError)?.message.contains(message) == true
        }
    }

    @Test func unknownCommandsAreRefused() {
        #expect {
            _ = try parse("fly", "{}")
        } throws: { ($0 as? CommandError)?.code == .unknownCommand }
    }

    @Test(arguments: [
        // channel 1, single long, 60 %, motor index 4, 3 iterations, 750 ms, start 0, exclusive, clear others
        (
            #"{"channel":1,"pattern":"single_long","intensity":60,"orientation_type":"motor_index","orientation":4,"iterations":3,"period_ms":750,"exclusive":true,"clear_others":true}"#,
            [
                0x01, 0x03, 0x3C, 0x00, 0x00, 0x00, 0x01, 0x04, 0x00, 0x00, 0x00, 0x03, 0xEE, 0x02, 0x00, 0x00, 0x01,
                0x01,
            ] as [UInt8]
        ),
        // binary mask of motors 0, 4, 8, 12 with a plain pattern, forever, default intensity
        (
            #"{"channel":0,"pattern":"single_long","orientation_type":"binary_mask","orientation":4369,"iterations":"forever","period_ms":700}"#,
            [
                0x00, 0x03, 0xAA, 0xAA, 0x00, 0x00, 0x00, 0x11, 0x11, 0x00, 0x00, 0x00, 0xBC, 0x02, 0x00, 0x00, 0x00,
                0x00,
            ]
        ),
    ])
    func channelConfigurationsCarryAllTenParameters(text: String, bytes: [UInt8]) throws {
        #expect(try parse("channel", text).encoded() == bytes)
    }

    @Test(arguments: [
        (
            #"{"channel":1,"pattern":"warning","orientation_type":"binary_mask","orientation":1,"period_ms":500}"#,
            "'pattern'"
        ),
        (
            #"{"channel":1,"pattern":"continuous","orientation_type":"binary_mask","orientation":127,"period_ms":500}"#,
            "motors"
        ),
        (
            #"{"channel":1,"pattern":"continuous","orientation_type":"angle","orientation":0,"period_ms":70000}"#,
            "'period_ms'"
        ),
        (
            #"{"channel":1,"pattern":"continuous","orientation_type":"angle","orientation":0,"period_ms":500,"iterations":0}"#,
            "'iterations'"
        ),
        (
            #"{"pattern":"continuous","orientation_type":"angle","orientation":0,"period_ms":500}"#,
            "'channel' is required"
        ),
    ])
    func channelConfigurationErrorsNameTheField(text: String, fragment: String) {
        #expect {
            _ = try parse("channel", text)
        } throws: { ($0 as? CommandError)?.message.contains(fragment) == true }
    }

    @Test func pulseIsSeventeenBytes() throws {
        let command = try parse(
            "pulse",
            #"{"channel":2,"orientation_type":"angle","orientation":90,"intensity":50,"on_duration_ms":100,"pulse_iterations":2,"series_iterations":3,"pulse_period_ms":300,"series_period_ms":2000,"timer_option":"keep"}"#
        )
        #expect(
            command.encoded() == [
                0x40, 0x02, 0x02, 0x5A, 0x00, 0x32, 0x64, 0x00, 0x02, 0x03, 0x2C, 0x01, 0xD0, 0x07, 0x02, 0x00, 0x00,
            ])
        #expect(command.minimumFirmware == 45)
    }

    @Test(arguments: [
        ("stop", "{}", [0x30, 0xFF] as [UInt8]),
        ("stop", #"{"channel":3}"#, [0x30, 0x03]),
        ("signal", "battery_level", [0x20, 0x02]),
        ("signal", #"{"signal":"warning"}"#, [0x20, 0x00]),
        ("intensity", #"{"intensity":60,"feedback":false}"#, [0x01, 0x82, 0x3C, 0x00, 0x00]),
        ("intensity", "80", [0x01, 0x82, 0x50, 0x00, 0x01]),
        ("compass_accuracy_signal", #"{"enabled":false}"#, [0x11, 0x03, 0x00, 0x00]),
        (
            "compass_accuracy_signal", #"{"compass_mode":true,"app_mode":false,"persist":true}"#,
            [0x11, 0x03, 0x01, 0x01]
        ),
        ("heading_offset", #"{"offset":300,"persist":true}"#, [0x11, 0x01, 0x01, 0x2C, 0x01]),
    ])
    func simpleCommandsEncodeAsTheVendorLibrariesDo(name: String, text: String, bytes: [UInt8]) throws {
        #expect(try parse(name, text).encoded() == bytes)
    }

    @Test(arguments: [
        ("intensity", "4", "'value' must be between 5 and 100"),
        ("heading_offset", "360", "'value' must be between 0 and 359"),
        ("signal", "siren", "'signal' must be one of"),
        ("compass_accuracy_signal", #"{"compass_mode":true}"#, "'enabled'"),
        ("orientation", #"{"period_ms":10}"#, "'period_ms' must be between 20"),
        ("orientation", "{}", "'enabled' or 'period_ms' is required"),
    ])
    func settingErrorsNameTheField(name: String, text: String, fragment: String) {
        #expect {
            _ = try BeltCommandParser.parse(command: name, payload: CommandPayload(bytes: Array(text.utf8)))
        } throws: { ($0 as? CommandError)?.message.contains(fragment) == true }
    }

    @Test func orientationSwitchesTheSubscriptionAndSetsThePeriod() throws {
        guard
            case .orientation(let enabled, let period) = try BeltCommandParser.parse(
                command: "orientation", payload: CommandPayload(bytes: Array(#"{"enabled":true,"period_ms":100}"#.utf8))
            )
        else { throw CommandError(.unknownCommand, "expected orientation") }
        #expect(enabled == true)
        #expect(period == 100)
    }
}
