import Foundation
import Testing

@testable import Peripherals

/// Host→device golden vectors from activ5.md §4.1's command table (all with the 0x19 terminator).
@Suite struct Activ5CommandTests {
    static let date = try! Activ5DateTime(year: 2019, month: 11, day: 22, hour: 12, minute: 30, second: 0)

    @Test(arguments: [
        (Activ5Command.handshakeReply, "41 54 56 47 54 49 4D 45 19"),
        (.startIsometric, "41 49 53 4F 4D 21 19"),
        (.tare, "41 54 41 52 45 21 19"),
        (.stop, "41 53 54 4F 50 21 19"),
        (.keepAlive, "41 53 54 4F 50 21 19"),
        (.requestSerialNumber(.first), "41 53 4E 31 21 19"),
        (.requestSerialNumber(.second), "41 53 4E 32 21 19"),
        (.requestDeviceID(.first), "41 49 44 31 21 19"),
        (.requestDeviceID(.second), "41 49 44 32 21 19"),
        (.setDate(date), "41 44 32 32 31 31 32 30 31 39 2F 44 19"),
        (.setTime(date), "41 54 31 32 33 30 30 30 2F 54 19"),
    ])
    func legacyCommandsAreByteExactOn5A02(command: Activ5Command, hex: String) {
        #expect(command.encoded() == Activ5TestBytes.hex(hex))
        #expect(command.characteristicUUID == Activ5TestBytes.legacyCommands)
        #expect(command.descriptorUUID == nil)
        // Commands fit one default-MTU write (activ5.md §4.1).
        #expect(command.encoded().count <= 20)
    }

    @Test(arguments: [(25, "19 00"), (100, "64 00"), (1, "01 00"), (1000, "E8 03"), (32767, "FF 7F")])
    func samplePeriodIsInt16LittleEndianOnF0FA(milliseconds: Int, hex: String) throws {
        let command = Activ5Command.setSamplePeriod(try Activ5SamplePeriod(milliseconds: milliseconds))
        #expect(command.encoded() == Activ5TestBytes.hex(hex))
        #expect(command.characteristicUUID == Activ5TestBytes.samplePeriod)
    }

    @Test(arguments: [0, -25, 32768, 100_000])
    func samplePeriodOutsideOneTo32767Throws(milliseconds: Int) {
        #expect(throws: FieldError.self) { try Activ5SamplePeriod(milliseconds: milliseconds) }
    }

    @Test func samplePeriodReportsHertz() throws {
        #expect(try Activ5SamplePeriod(milliseconds: 25).hertz == 40)
        #expect(try Activ5SamplePeriod(milliseconds: 100).hertz == 10)
    }

    @Test func subscriptionsAreCCCDWrites() {
        let start = Activ5Command.subscribe("F0FE")
        #expect(start.characteristicUUID == Activ5TestBytes.force)
        #expect(start.descriptorUUID == Activ5TestBytes.cccd)
        #expect(start.encoded() == [0x01, 0x00])
        let stop = Activ5Command.unsubscribe(Activ5TestBytes.imu)
        #expect(stop.characteristicUUID == Activ5TestBytes.imu)
        #expect(stop.encoded() == [0x00, 0x00])
    }

    @Test func streamingAndTareDependOnTheProtocol() {
        #expect(Activ5Command.startForce(.legacy) == .startIsometric)
        #expect(Activ5Command.stopForce(.legacy) == .stop)
        #expect(Activ5Command.startForce(.new) == .subscribe(Activ5TestBytes.force))
        #expect(Activ5Command.stopForce(.new) == .unsubscribe(Activ5TestBytes.force))
        #expect(Activ5Command.startIMU == .subscribe(Activ5TestBytes.imu))
        #expect(Activ5Command.stopIMU == .unsubscribe(Activ5TestBytes.imu))
        #expect(Activ5Command.tare(.legacy) == .tare)
        #expect(Activ5Command.tare(.new) == nil)
    }

    @Test func dateTimeFromADateUsesTheGivenZone() throws {
        // 2019-11-22 12:30:05 UTC.
        let date = Date(timeIntervalSince1970: 1_574_425_805)
        let utc = Activ5DateTime(date, timeZone: try #require(TimeZone(identifier: "UTC")))
        #expect(utc.dateDigits == "22112019")
        #expect(utc.timeDigits == "123005")
        let tokyo = Activ5DateTime(date, timeZone: try #require(TimeZone(identifier: "Asia/Tokyo")))
        #expect(tokyo.timeDigits == "213005")
        #expect(Activ5Command.setDate(tokyo).encoded() == Activ5TestBytes.hex("41 44 32 32 31 31 32 30 31 39 2F 44 19"))
    }

    @Test func dateTimeRejectsImpossibleFields() {
        #expect(throws: FieldError(field: "month", message: "13 is outside 1…12")) {
            try Activ5DateTime(year: 2019, month: 13, day: 1)
        }
        #expect(throws: FieldError.self) { try Activ5DateTime(year: 2019, month: 1, day: 1, hour: 24) }
        #expect(throws: FieldError.self) { try Activ5DateTime(year: 10_000, month: 1, day: 1) }
    }
}
