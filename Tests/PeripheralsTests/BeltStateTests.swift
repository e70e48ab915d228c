import Testing

@testable import Peripherals

@Suite struct BeltStateTests {
    /// Parses a write and applies it, returning the notified bytes.
    private func respond(_ state: inout BeltState, _ uuid: String, _ bytes: [UInt8]) throws -> [[UInt8]] {
        let responses = state.apply(try BeltRequest.decode(characteristic: uuid, bytes: bytes))
        for response in responses {
            #expect(response.characteristicUUID == "0000fe06-0000-1000-8000-00805f9b34fb")
        }
        return responses.map { $0.encoded() }
    }

    @Test func modeChangeInBothFormsNotifiesTheMode() throws {
        var state = BeltState(mode: .wait)
        #expect(try respond(&state, "FE05", [0x01, 0x81, 0x03]) == [[0x01, 0x01, 0x03]])
        #expect(state.mode == .app)
        #expect(try respond(&state, "FE05", [0x01, 0x81, 0x04, 0x00]) == [[0x01, 0x01, 0x04]])
        #expect(state.mode == .pause)
        #expect(state.keepAlive.encoded() == [0x01, 0x04])
    }

    @Test(arguments: [(UInt8(2), UInt8(5)), (0, 5), (5, 5), (60, 60), (100, 100)])
    func intensityIsRaisedToFive(requested: UInt8, kept: UInt8) throws {
        var state = BeltState()
        #expect(try respond(&state, "FE05", [0x01, 0x82, requested, 0x00, 0x01]) == [[0x01, 0x02, kept]])
        #expect(state.defaultIntensity == kept)
    }

    @Test func readsAnswerWithCurrentValues() throws {
        var state = BeltState(mode: .compass, defaultIntensity: 70, headingOffset: 300, accuracySignal: .compassMode)
        #expect(try respond(&state, "FE05", [0x01, 0x01]) == [[0x01, 0x01, 0x02]])
        #expect(try respond(&state, "FE05", [0x01, 0x02]) == [[0x01, 0x02, 0x46]])
        #expect(try respond(&state, "FE05", [0x01, 0x03]) == [[0x01, 0x03, 0x2C, 0x01]])
        #expect(try respond(&state, "FE05", [0x10, 0x01, 0x03]) == [[0x10, 0x03, 0x01]])
        #expect(try respond(&state, "FE05", [0x10, 0x01, 0x00]) == [[0x10, 0x00, 0x46]])
        #expect(try respond(&state, "FE05", [0x10, 0x01, 0x01]) == [[0x10, 0x01, 0x2C, 0x01]])
        #expect(try respond(&state, "FE05", [0x10, 0x01, 0x25]) == [[0x10, 0x25, 0x01]])
        #expect(try respond(&state, "FE05", [0x10, 0x01, 0x0A]) == [])
    }

    @Test func factoryStateMatchesBeltNotes() throws {
        var state = BeltState()
        #expect(try respond(&state, "FE05", [0x01, 0x03]) == [[0x01, 0x03, 0x2D, 0x00]])  // 45°
        #expect(try respond(&state, "FE05", [0x10, 0x01, 0x03]) == [[0x10, 0x03, 0x03]])
        #expect(state.firmware.encoded() == [0x34, 0x00, 0x00])
    }

    @Test func advancedWritesAreAckedWithTheAdvancedForm() throws {
        var state = BeltState()
        #expect(try respond(&state, "FE05", [0x11, 0x03, 0x00, 0x01]) == [[0x10, 0x03, 0x01]])
        #expect(state.accuracySignal == .compassMode)
        #expect(try respond(&state, "FE05", [0x11, 0x01, 0x01, 0x5A, 0x00]) == [[0x10, 0x01, 0x5A, 0x00]])
        #expect(state.headingOffset == 90)
        #expect(try respond(&state, "FE05", [0x01, 0x83, 0x0A, 0x00]) == [[0x01, 0x03, 0x0A, 0x00]])
        #expect(state.headingOffset == 10)
        #expect(try respond(&state, "FE05", [0x11, 0x25, 0x01, 0x00]) == [[0x10, 0x25, 0x00]])
        #expect(!state.pairingRequired)
    }

    @Test func orientationPeriodNeedsFirmware52() throws {
        var current = BeltState(firmware: BeltFirmwareInfo(version: 52))
        #expect(try respond(&current, "FE05", [0x11, 0x0F, 0x00, 0x64, 0x00]) == [[0x10, 0x0F, 0x64, 0x00]])
        #expect(current.orientationPeriodMs == 100)
        #expect(try respond(&current, "FE05", [0x10, 0x01, 0x0F]) == [[0x10, 0x0F, 0x64, 0x00]])

        var old = BeltState(firmware: BeltFirmwareInfo(version: 45))
        #expect(try respond(&old, "FE05", [0x11, 0x0F, 0x00, 0x64, 0x00]) == [])
        #expect(old.orientationPeriodMs == 500)
    }

    @Test func vibrationWritesAreRecordedWithoutResponse() throws {
        var state = BeltState(mode: .app)
        let first = try ChannelConfiguration(
            channel: 1, pattern: .continuous, orientationType: .angle, orientationValue: 0, periodMs: 500)
        let second = try ChannelConfiguration(
            channel: 2, pattern: .singleLong, orientationType: .angle, orientationValue: 90, periodMs: 500)
        #expect(try respond(&state, "FE03", first.encoded()) == [])
        #expect(try respond(&state, "FE03", second.encoded()) == [])
        #expect(state.channels == [1: .pattern(first), 2: .pattern(second)])

        #expect(try respond(&state, "FE03", [0x30, 0x01]) == [])
        #expect(state.channels == [2: .pattern(second)])

        let clearing = try ChannelConfiguration(
            channel: 0, pattern: .warning, orientationType: .motorIndex, orientationValue: 0, iterations: 2,
            periodMs: 500, clearOthers: true)
        _ = try respond(&state, "FE03", clearing.encoded())
        #expect(state.channels == [0: .pattern(clearing)])

        #expect(try respond(&state, "FE03", [0x30, 0xFF]) == [])
        #expect(state.channels.isEmpty)

        #expect(try respond(&state, "FE03", [0x20, 0x02]) == [])
        #expect(state.lastSystemSignal == .batteryLevel)
    }

    @Test func keepAliveAcksAreCountedSilently() throws {
        var state = BeltState()
        #expect(try respond(&state, "FE02", [0x00, 0x00]) == [])
        #expect(try respond(&state, "FE02", [0x01]) == [])
        #expect(state.keepAliveAcks == 2)
    }

    @Test func renameAndResetRestoreFactoryValues() throws {
        var state = BeltState()
        #expect(try respond(&state, "FE05", [0x01, 0x84, 0x2D, 0x41]) == [])
        #expect(state.name == "naviGuertel-A")
        #expect(try respond(&state, "FE05", [0x01, 0x04]) == [[0x01, 0x04] + Array("naviGuertel-A".utf8)])
        _ = try respond(&state, "FE05", [0x01, 0x82, 0x5A, 0x00, 0x00])
        #expect(try respond(&state, "FE05", [0x12, 0x01, 0x00, 0x00]) == [])
        #expect(state.defaultIntensity == 50)
        #expect(state.name == "naviGuertel-A")
        _ = try respond(&state, "FE05", [0x12, 0x00, 0x01, 0x00])
        #expect(state.name == "naviGuertel")
    }
}
