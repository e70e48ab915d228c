import Testing

@testable import Peripherals

@Suite struct CPRBandStateTests {
    /// Decodes each write to FFF4 and applies it, returning the responses of all writes.
    private func write(_ state: inout CPRBandState, _ writes: [[UInt8]]) throws -> [CPRBandResponse] {
        try writes.flatMap { state.apply(try CPRBandRequest.decode(characteristic: "FFF4", bytes: $0)) }
    }

    @Test(arguments: [
        (UInt8(0xF1), CPRBandRequest.command(.ready)),
        (0xF2, .command(.call)),
        (0xF3, .command(.practice)),
        (0xF4, .command(.evaluationStart)),
        (0xF5, .command(.newRange)),
        (0xF6, .command(.newName)),
        (0xF7, .command(.reset)),
        (0xFF, .command(.powerOff)),
        (0xB0, .factory(.calibration)),
        (0xBA, .factory(.calibrationMagnet)),
        (0xC0, .factory(.magnet)),
        (0xDD, .factory(.bleTest)),
        (0x32, .value(0x32)),
        (0xF8, .value(0xF8)),
    ])
    func everyByteIsClassified(byte: UInt8, request: CPRBandRequest) throws {
        #expect(try CPRBandRequest.decode(bytes: [byte]) == [request])
        #expect(request.byte == byte)
    }

    @Test func multiByteWriteIsReadAsSeparateWrites() throws {
        #expect(
            try CPRBandRequest.decode(bytes: [0xF5, 0x32, 0x3C]) == [.command(.newRange), .value(0x32), .value(0x3C)])
        var state = CPRBandState()
        #expect(try write(&state, [[0xF5, 0x32, 0x46]]) == [.rangeChanged(minMillimetres: 50, maxMillimetres: 70)])
    }

    @Test func rejectedWrites() {
        let command = "0000fff4-0000-1000-8000-00805f9b34fb"
        let empty = CPRBandRequestError(characteristic: command, reason: .empty)
        #expect(throws: empty) { try CPRBandRequest.decode(characteristic: "fff4", bytes: []) }
        #expect(empty.bluezErrorName == "org.bluez.Error.InvalidValueLength")
        let readOnly = CPRBandRequestError(characteristic: "0000fff3-0000-1000-8000-00805f9b34fb", reason: .notWritable)
        #expect(throws: readOnly) { try CPRBandRequest.decode(characteristic: "FFF3", bytes: [0xF1]) }
        #expect(readOnly.bluezErrorName == "org.bluez.Error.NotPermitted")
    }

    @Test func modesFollowTheCommandBytes() throws {
        var state = CPRBandState()
        #expect(state.mode == .ready && !state.mode.isStreaming)
        #expect(try write(&state, [[0xF3]]) == [.modeSet(.practicing)])
        #expect(state.mode.isStreaming)
        #expect(try write(&state, [[0xF4]]) == [.modeSet(.evaluating)])
        #expect(state.mode.isStreaming)
        #expect(try write(&state, [[0xF1]]) == [.modeSet(.ready)])
        #expect(!state.mode.isStreaming)
        #expect(try write(&state, [[0xF1]]) == [.modeSet(.ready)])
        #expect(try write(&state, [[0xF2]]) == [.called])
    }

    @Test(arguments: [UInt8(0xF2), 0xF5, 0xF6, 0xF7, 0xFF])
    func readyOnlyCommandsAreIgnoredWhileStreaming(byte: UInt8) throws {
        var state = CPRBandState()
        _ = try write(&state, [[0xF3]])
        let opcode = try #require(CPRBandOpcode(rawValue: byte))
        #expect(try write(&state, [[byte]]) == [.ignored(.notReady(opcode, mode: .practicing))])
        #expect(state.mode == .practicing)
        #expect(state.pendingSequence == nil)
        #expect(state.name == "CPR-BAND")
    }

    @Test func readyOnlyRuleCanBeSwitchedOff() throws {
        var state = CPRBandState(mode: .evaluating, enforcesReadyOnlyRule: false)
        #expect(try write(&state, [[0xF2]]) == [.called])
        #expect(try write(&state, [[0xFF]]) == [.poweredOff])
    }

    @Test func rangeSequenceFromTheBridgeEncoder() throws {
        var state = CPRBandState()
        let range = try CPRBandDepthRange(minMillimetres: 45, maxMillimetres: 65)
        let writes = CPRBandCommand.range(range).writes
        #expect(try write(&state, [writes[0]]) == [])
        #expect(state.pendingSequence?.remaining == 2)
        #expect(try write(&state, [writes[1]]) == [])
        #expect(state.pendingSequence?.arguments == [45])
        #expect(try write(&state, [writes[2]]) == [.rangeChanged(minMillimetres: 45, maxMillimetres: 65)])
        #expect(state.pendingSequence == nil)
        #expect(state.minimumDepthMillimetres == 45 && state.maximumDepthMillimetres == 65)
        #expect(state.mode == .ready)
    }

    @Test func rangeArgumentsMayLookLikeCommands() throws {
        var state = CPRBandState()
        #expect(
            try write(&state, [[0xF5], [0xF1], [0xFF]]) == [.rangeChanged(minMillimetres: 0xF1, maxMillimetres: 0xFF)])
        #expect(state.mode == .ready)
    }

    @Test func nameSequenceFromTheBridgeEncoder() throws {
        var state = CPRBandState()
        let responses = try write(&state, CPRBandCommand.name(try CPRBandName("CPR-01")).writes)
        #expect(responses == [.nameChanged("CPR-01")])
        #expect(state.name == "CPR-01")
    }

    @Test func latinOneNameBytesAreArguments() throws {
        var state = CPRBandState()
        let name: [UInt8] = [0x43, 0xF1, 0x20, 0x41] + Array(repeating: 0x20, count: 14)  // "Cñ A"
        #expect(try write(&state, [[0xF6]] + name.map { [$0] }) == [.nameChanged("C\u{F1} A")])
    }

    @Test func bytesOutsideASequenceAreIgnored() throws {
        var state = CPRBandState()
        #expect(try write(&state, [[0x32]]) == [.ignored(.unexpectedValue(0x32))])
    }

    @Test func disconnectAbandonsASequence() throws {
        var state = CPRBandState()
        _ = try write(&state, [[0xF6], [0x41]])
        state.disconnect()
        #expect(state.pendingSequence == nil)
        state.connect()
        #expect(try write(&state, [[0xF1]]) == [.modeSet(.ready)])
        #expect(state.name == "CPR-BAND")
    }

    @Test func factoryBytesAreRecordedWithoutEffect() throws {
        var state = CPRBandState()
        #expect(
            try write(&state, [[0xC0], [0xDD]]) == [
                .factoryCommandRecorded(.magnet), .factoryCommandRecorded(.bleTest),
            ])
        #expect(state.factoryCommands == [.magnet, .bleTest])
        #expect(state.mode == .ready)
    }

    @Test func powerOffSwitchesTheBandOff() throws {
        var state = CPRBandState()
        #expect(try write(&state, [[0xFF]]) == [.poweredOff])
        #expect(state.mode == .off)
        #expect(try write(&state, [[0xF1]]) == [.ignored(.poweredOff)])
        state.connect()
        #expect(state.mode == .ready)
    }

    @Test func resetRestoresFactoryValuesAndSwitchesOff() throws {
        var state = CPRBandState(name: "CPR-Custom", minimumDepthMillimetres: 40, maximumDepthMillimetres: 45)
        #expect(try write(&state, [[0xF7]]) == [.factoryReset, .poweredOff])
        #expect(state.mode == .off)
        #expect(state.name == "CPR-BAND")
        #expect(state.minimumDepthMillimetres == 50 && state.maximumDepthMillimetres == 60)
    }

    @Test func bridgeAndSimulatorAgreeOnModes() throws {
        let commands: [CPRBandCommand] = [
            .ready, .practice, .ready, .call, .range(.vendorDefault), .name(try CPRBandName("CPR-7")), .evaluate,
            .ready, .powerOff,
        ]
        var state = CPRBandState()
        var tracked = CPRBandMode.unknown
        for command in commands {
            try command.checkAllowed(in: tracked)
            _ = try write(&state, command.writes)
            tracked = command.mode(after: tracked)
            #expect(state.mode == tracked)
        }
        #expect(state.name == "CPR-7")
    }

    @Test func batteryReadValue() {
        #expect(CPRBandState().batteryReadValue == [0xBE])
        #expect(CPRBandState(batteryRaw: 0xFF).batteryReadValue == [0xFF])
    }
}
