import Testing

@testable import Peripherals

@Suite struct BeltSignalPresetTests {
    @Test func criticalWarningUsesMask0x1111() throws {
        let bytes = try BeltSignalPreset.criticalWarning.configuration(direction: 123).encoded()
        #expect(
            bytes == [
                0x00, 0x03, 0xAA, 0xAA, 0x00, 0x00, 0x00, 0x11, 0x11, 0x00, 0x00, 0x03, 0xBC, 0x02, 0x00, 0x00, 0x01,
                0x00,
            ])
    }

    @Test func navigationPointsAtTheBearingOnChannel2() throws {
        let bytes = try BeltSignalPreset.navigation.configuration(direction: 270, orientationType: .bearing).encoded()
        #expect(
            bytes == [
                0x02, 0x01, 0xAA, 0xAA, 0x00, 0x00, 0x03, 0x0E, 0x01, 0x00, 0x00, 0x00, 0xF4, 0x01, 0x00, 0x00, 0x00,
                0x00,
            ])
    }

    @Test func operationWarningIsQuarterIntensityOnChannel0() throws {
        let bytes = try BeltSignalPreset.warning.configuration().encoded()
        #expect(
            bytes == [
                0x00, 0x06, 0x19, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x02, 0xF4, 0x01, 0x00, 0x00, 0x01,
                0x00,
            ])
    }

    /// Pattern, iterations (0 = forever), period, exclusive, channel, per belt.md §3.2.5 Android column.
    @Test(arguments: [
        ("continuous", UInt8(1), UInt8(0), UInt16(500), false, UInt8(2)),
        ("navigation", 1, 0, 500, false, 2),
        ("direction_notification", 1, 1, 1000, false, 0),
        ("approaching_destination", 2, 0, 500, false, 2),
        ("turn", 3, 0, 750, false, 2),
        ("waypoint_long", 3, 0, 3000, false, 2),
        ("waypoint", 3, 0, 1500, false, 2),
        ("waypoint_short", 3, 0, 1000, false, 2),
        ("area_reached", 3, 0, 750, false, 2),
        ("destination_reached", 9, 1, 2500, true, 0),
        ("destination_reached_repeated", 9, 0, 5000, false, 2),
        ("warning", 6, 2, 500, true, 0),
        ("critical_warning", 3, 3, 700, true, 0),
    ])
    func presetTable(name: String, pattern: UInt8, iterations: UInt8, period: UInt16, exclusive: Bool, channel: UInt8)
        throws
    {
        let preset = try #require(BeltSignalPreset(name: name))
        let bytes = try preset.configuration(direction: 45, orientationType: .angle).encoded()
        #expect(bytes[0] == channel)
        #expect(bytes[1] == pattern)
        #expect(bytes[11] == iterations)
        #expect(UInt16(bytes[12]) | UInt16(bytes[13]) << 8 == period)
        #expect(bytes[16] == (exclusive ? 1 : 0))
        #expect(bytes[17] == 0)
    }

    @Test func fixedMotorPresetsIgnoreDirection() throws {
        let reached = try BeltSignalPreset.destinationReached.configuration(direction: 200, orientationType: .angle)
        #expect(reached.orientationType == .motorIndex)
        #expect(reached.orientationValue == 0)
        #expect(!BeltSignalPreset.destinationReached.isDirectional)
        #expect(BeltSignalPreset.turn.isDirectional)
    }

    @Test func overridesAreValidated() throws {
        let moved = try BeltSignalPreset.directionNotification.configuration(direction: -10, channel: 1, intensity: 70)
        #expect(moved.channel == 1)
        #expect(moved.intensity == 70)
        #expect(moved.orientationValue == 350)
        #expect(throws: FieldError(field: "channel", message: "7 is outside 0…5")) {
            try BeltSignalPreset.turn.configuration(channel: 7)
        }
    }

    @Test func namesRoundTripAndAliasesResolve() {
        for preset in BeltSignalPreset.allCases {
            #expect(BeltSignalPreset(name: preset.name) == preset)
        }
        #expect(BeltSignalPreset(name: "OPERATION_WARNING") == .warning)
        #expect(BeltSignalPreset(name: "turn_ongoing") == .turn)
        #expect(BeltSignalPreset(name: "fireworks") == nil)
    }
}
