import Testing

@testable import Peripherals

@Suite struct CPRBandCommandTests {
    static let command = "0000fff4-0000-1000-8000-00805f9b34fb"

    @Test(arguments: [
        (CPRBandCommand.ready, UInt8(0xF1)),
        (.call, 0xF2),
        (.practice, 0xF3),
        (.evaluate, 0xF4),
        (.reset, 0xF7),
        (.powerOff, 0xFF),
    ])
    func singleByteCommands(command: CPRBandCommand, byte: UInt8) {
        #expect(command.writes == [[byte]])
        #expect(command.opcode.rawValue == byte)
        #expect(command.characteristicUUID == Self.command)
    }

    @Test func onConnectIsReady() {
        #expect(CPRBandCommand.onConnect == .ready)
        #expect(CPRBandCommand.onConnect.writes == [[0xF1]])
    }

    @Test(arguments: [
        (50, 60, [[UInt8(0xF5)], [0x32], [0x3C]]),
        (35, 35, [[0xF5], [0x23], [0x23]]),
        (55, 69, [[0xF5], [0x37], [0x45]]),
    ])
    func rangeIsThreeWrites(min: Int, max: Int, writes: [[UInt8]]) throws {
        let range = try CPRBandDepthRange(minMillimetres: min, maxMillimetres: max)
        #expect(CPRBandCommand.range(range).writes == writes)
    }

    @Test(arguments: [
        (5.0, 6.0, UInt8(50), UInt8(60)),
        (5.3, 6.9, 53, 69),  // Bus would truncate 5.3 × 10 to 52; the bridge rounds.
        (3.5, 5.5, 35, 55),
        (4.04, 4.96, 40, 50),
    ])
    func rangeFromCentimetresRoundsToMillimetres(min: Double, max: Double, minMM: UInt8, maxMM: UInt8) throws {
        let range = try CPRBandDepthRange(minCentimetres: min, maxCentimetres: max)
        #expect(range.minMillimetres == minMM)
        #expect(range.maxMillimetres == maxMM)
        #expect(CPRBandCommand.range(range).writes == [[0xF5], [minMM], [maxMM]])
    }

    @Test(arguments: [
        (34, 60, "minMillimetres"),
        (56, 60, "minMillimetres"),
        (50, 70, "maxMillimetres"),  // the sample app's 5.0–7.0 cm is outside "max < 7.0 cm"
        (50, 49, "maxMillimetres"),
        (-1, 60, "minMillimetres"),
    ])
    func rangeValidationNamesTheField(min: Int, max: Int, field: String) {
        #expect(throws: FieldError.self) { try CPRBandDepthRange(minMillimetres: min, maxMillimetres: max) }
        do {
            _ = try CPRBandDepthRange(minMillimetres: min, maxMillimetres: max)
        } catch {
            #expect(error.field == field)
        }
    }

    @Test(arguments: [
        (3.4, 6.0, "minCentimetres"),
        (5.0, 7.0, "maxCentimetres"),
        (Double.nan, 6.0, "minCentimetres"),
        (5.0, Double.infinity, "maxCentimetres"),
    ])
    func centimetreValidationNamesTheField(min: Double, max: Double, field: String) {
        do {
            _ = try CPRBandDepthRange(minCentimetres: min, maxCentimetres: max)
            Issue.record("expected an error for \(min)–\(max)")
        } catch {
            #expect(error.field == field)
        }
    }

    @Test func namePaddedToEighteenBytesAfterF6() throws {
        let command = CPRBandCommand.name(try CPRBandName("CPR-01"))
        let expected: [UInt8] =
            [0xF6, 0x43, 0x50, 0x52, 0x2D, 0x30, 0x31] + Array(repeating: 0x20, count: 12)
        #expect(command.writes.count == 19)
        #expect(command.writes == expected.map { [$0] })
    }

    @Test func eighteenCharacterNameHasNoPadding() throws {
        let name = try CPRBandName("CPR-NewName-123456")
        #expect(name.paddedBytes == Array("CPR-NewName-123456".utf8))
    }

    @Test(arguments: ["", "   ", "CPR-NewName-1234567", "CPR-Bänd", "CPR\u{7F}", "CPR\tBAND"])
    func invalidNamesNameTheField(text: String) {
        do {
            _ = try CPRBandName(text)
            Issue.record("expected an error for \(text.debugDescription)")
        } catch {
            #expect(error.field == "name")
        }
    }

    @Test(arguments: [
        (CPRBandCommand.ready, false, CPRBandMode?.some(.ready)),
        (.practice, false, .practicing),
        (.evaluate, false, .evaluating),
        (.call, true, nil),
        (.range(.vendorDefault), true, nil),
        (.name(try! CPRBandName("X")), true, nil),
        (.reset, true, .off),
        (.powerOff, true, .off),
    ])
    func readyOnlyRuleAndResultingMode(command: CPRBandCommand, readyOnly: Bool, mode: CPRBandMode?) {
        #expect(command.requiresReadyMode == readyOnly)
        #expect(command.resultingMode == mode)
        #expect(command.mode(after: .ready) == mode ?? .ready)
    }

    @Test func readyOnlyCommandsAreRefusedOutsideReady() throws {
        for mode in [CPRBandMode.unknown, .practicing, .evaluating] {
            for command in [CPRBandCommand.call, .range(.vendorDefault), .reset, .powerOff] {
                #expect(
                    throws: FieldError(
                        field: "mode",
                        message: "\(command.opcode) is only sent in ready mode, the band is \(mode.rawValue)")
                ) {
                    try command.checkAllowed(in: mode)
                }
            }
            try CPRBandCommand.ready.checkAllowed(in: mode)
            try CPRBandCommand.practice.checkAllowed(in: mode)
            try CPRBandCommand.evaluate.checkAllowed(in: mode)
        }
        try CPRBandCommand.powerOff.checkAllowed(in: .ready)
        #expect(throws: FieldError.self) { try CPRBandCommand.ready.checkAllowed(in: .off) }
    }

    @Test func opcodeTable() {
        #expect(CPRBandOpcode.allCases.map(\.rawValue) == [0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xFF])
        #expect(CPRBandOpcode.allCases.filter(\.requiresReadyMode) == [.call, .newRange, .newName, .reset, .powerOff])
        #expect(CPRBandOpcode.allCases.filter(\.switchesBandOff) == [.reset, .powerOff])
        #expect(CPRBandOpcode.newRange.argumentCount == 2)
        #expect(CPRBandOpcode.newName.argumentCount == 18)
        #expect(CPRBandFactoryOpcode.allCases.map(\.rawValue) == [0xB0, 0xBA, 0xC0, 0xDD])
    }

    @Test func vendorDefaultRange() {
        #expect(CPRBandDepthRange.vendorDefault.minCentimetres == 5.0)
        #expect(CPRBandDepthRange.vendorDefault.maxCentimetres == 6.0)
        #expect(CPRBandDepthRange.vendorDefault.contains(millimetres: 50))
        #expect(CPRBandDepthRange.vendorDefault.contains(millimetres: 60))
        #expect(!CPRBandDepthRange.vendorDefault.contains(millimetres: 61))
    }
}
