import Testing

@testable import Peripherals

@Suite struct BeltEnumTests {
    @Test(arguments: [
        (UInt8(0), "standby"), (1, "wait"), (2, "compass"), (3, "app"), (4, "pause"), (5, "calibration"),
        (6, "crossing"),
    ])
    func modeNames(raw: UInt8, name: String) {
        #expect(BeltMode(rawValue: raw)?.name == name)
        #expect(BeltMode(name: name)?.rawValue == raw)
        #expect(BeltMode(name: name.uppercased())?.rawValue == raw)
    }

    @Test func unknownModesAreRejected() {
        #expect(BeltMode(rawValue: 9) == nil)
        #expect(BeltMode(rawValue: 0xFF) == nil)
        #expect(BeltMode(name: "advanced") == nil)
    }

    @Test(arguments: [(UInt8(1), "power"), (2, "pause"), (3, "compass"), (4, "home")])
    func buttonNames(raw: UInt8, name: String) {
        #expect(BeltButton(rawValue: raw)?.name == name)
        #expect(BeltButton(name: name)?.rawValue == raw)
    }

    @Test(arguments: [(UInt8(0), "unknown"), (1, "battery"), (2, "charging"), (3, "external")])
    func powerStatusNames(raw: UInt8, name: String) {
        #expect(BeltPowerStatus(rawValue: raw)?.name == name)
    }

    @Test(arguments: [(UInt8(0), "binary_mask"), (1, "motor_index"), (2, "angle"), (3, "bearing")])
    func orientationTypeNames(raw: UInt8, name: String) {
        #expect(OrientationType(name: name)?.rawValue == raw)
    }

    @Test(arguments: [(UInt8(0), "warning"), (1, "destination_reached"), (2, "battery_level")])
    func systemSignalNames(raw: UInt8, name: String) {
        #expect(SystemSignal(name: name)?.rawValue == raw)
    }

    @Test func patternTableMatchesBeltNotes() {
        #expect(VibrationPattern.allCases.count == 27)
        #expect(VibrationPattern(rawValue: 2)?.name == "single_short")
        #expect(VibrationPattern(rawValue: 8)?.name == "fade_out")
        #expect(VibrationPattern(rawValue: 11)?.name == "battery_level_0")
        #expect(VibrationPattern(rawValue: 24)?.name == "battery_level_13")
        #expect(VibrationPattern(rawValue: 27) == nil)
        #expect(VibrationPattern(name: "battery_level_5")?.rawValue == 16)
        let maskBased = VibrationPattern.allCases.filter(\.isMaskBased).map(\.rawValue)
        #expect(maskBased == [6, 7, 9, 10] + Array(11...24))
    }
}
