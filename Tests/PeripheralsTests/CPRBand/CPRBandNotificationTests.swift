import Foundation
import Testing

@testable import Peripherals

@Suite struct CPRBandNotificationTests {
    static let depth = "0000fff1-0000-1000-8000-00805f9b34fb"
    static let angle = "0000fff2-0000-1000-8000-00805f9b34fb"
    static let battery = "0000fff3-0000-1000-8000-00805f9b34fb"

    @Test(arguments: [
        (UInt8(0x34), 5.2),
        (0x3C, 6.0),
        (0x32, 5.0),
        (0x00, 0.0),
        (0xFF, 25.5),
    ])
    func depthIsMillimetresOverTen(raw: UInt8, centimetres: Double) throws {
        let depth = try CPRBandDepth(bytes: [raw])
        #expect(depth.centimetres == centimetres)
        #expect(depth.millimetres == raw)
        #expect(try CPRBandNotification.decode(characteristic: "FFF1", bytes: [raw]) == .depth(depth))
    }

    @Test(arguments: [
        (UInt8(0x00), 0),
        (0x1E, 30),
        (0x59, 89),
        (0x5A, 0),  // raw 90 folds to 0°
        (0x5B, -1),
        (0x78, -30),
        (0xB4, -90),
    ])
    func angleFoldsAtNinety(raw: UInt8, degrees: Int) throws {
        let angle = try CPRBandAngle(bytes: [raw])
        #expect(angle.degrees == degrees)
        #expect(try CPRBandNotification.decode(characteristic: Self.angle, bytes: [raw]) == .angle(angle))
    }

    @Test(arguments: [(30, UInt8(0x1E)), (-30, 0x78), (-90, 0xB4), (0, 0x00), (89, 0x59), (90, 0x59), (-120, 0xB4)])
    func angleEncoderClampsToTheWireRange(degrees: Int, raw: UInt8) {
        #expect(CPRBandNotification.angle(CPRBandAngle(degrees: degrees)).encoded() == [raw])
    }

    @Test(arguments: [UInt8(0xB5), 0xC8, 0xFF])
    func angleAboveOneEightyIsAnError(raw: UInt8) {
        #expect(throws: CPRBandDecodeError(characteristic: Self.angle, reason: .angleOutOfRange(raw))) {
            try CPRBandAngle(bytes: [raw])
        }
    }

    @Test(arguments: [
        (UInt8(0xAF), 0.0, Double?.some(3.50)),
        (0xB4, 16.7, 3.60),
        (0xBE, 50.0, 3.80),
        (0xC3, 66.7, 3.90),
        (0xC8, 83.3, 4.00),
        (0xCD, 83.3, 4.10),  // the 83 % quirk: clamped to 4.0 V, divided by 0.6 V
        (0xD2, 83.3, 4.20),
        (0xFF, 100.0, nil),
    ])
    func batteryFollowsTheBusLibrary(raw: UInt8, percent: Double, volts: Double?) throws {
        let level = try CPRBandBatteryLevel(bytes: [raw])
        #expect((level.percent * 10).rounded() / 10 == percent)
        #expect(level.volts.map { ($0 * 100).rounded() / 100 } == volts)
        #expect(level.raw == raw)
        #expect(try CPRBandNotification.decode(characteristic: "fff3", bytes: [raw]) == .battery(level))
    }

    @Test(arguments: [(UInt8(0xAF), 0.0), (0xBE, 42.9), (0xC8, 71.4), (0xD2, 100.0), (0xFF, 100.0)])
    func fullSpanMappingHasNoQuirk(raw: UInt8, percent: Double) throws {
        let level = try CPRBandBatteryLevel(bytes: [raw], mapping: .fullSpan)
        #expect((level.percent * 10).rounded() / 10 == percent)
    }

    @Test(arguments: [UInt8(0x00), 0xAE, 0xD3, 0xFE])
    func batteryOutsideTheMappingIsAnError(raw: UInt8) {
        #expect(throws: CPRBandDecodeError(characteristic: Self.battery, reason: .unmappedBattery(raw))) {
            try CPRBandBatteryLevel(bytes: [raw])
        }
    }

    @Test func batteryMappingIsReplaceableAndCodable() throws {
        var mapping = CPRBandBatteryMapping.busLibrary
        mapping.fixedEntries.append(.init(raw: 0x00, percent: 0))
        #expect(try mapping.level(raw: 0x00) == CPRBandBatteryLevel(raw: 0, percent: 0, volts: nil))
        let json = try JSONEncoder().encode(mapping)
        #expect(try JSONDecoder().decode(CPRBandBatteryMapping.self, from: json) == mapping)
    }

    @Test func longerPayloadsUseTheLastByteLikeBus() throws {
        #expect(try CPRBandDepth(bytes: [0x00, 0x34]).millimetres == 0x34)
        #expect(try CPRBandAngle(bytes: [0x01, 0x78]).degrees == -30)
        #expect(try CPRBandBatteryLevel(bytes: [0x00, 0xBE]).percent.rounded() == 50)
    }

    @Test(arguments: [Self.depth, Self.angle, Self.battery])
    func emptyPayloadsAreErrors(uuid: String) {
        #expect(throws: CPRBandDecodeError(characteristic: uuid, reason: .empty)) {
            try CPRBandNotification.decode(characteristic: uuid, bytes: [])
        }
    }

    @Test func commandCharacteristicCarriesNothingForTheBridge() {
        let error = CPRBandDecodeError(
            characteristic: "0000fff4-0000-1000-8000-00805f9b34fb", reason: .unsupportedCharacteristic)
        #expect(throws: error) { try CPRBandNotification.decode(characteristic: "FFF4", bytes: [0xF1]) }
        #expect(error.description.contains("fff4"))
    }

    @Test func simulatorEncodersRoundTrip() throws {
        #expect(CPRBandNotification.depth(CPRBandDepth(centimetres: 5.2)).encoded() == [0x34])
        #expect(CPRBandDepth(centimetres: 30).millimetres == 255)
        #expect(CPRBandDepth(centimetres: -1).millimetres == 0)
        #expect(CPRBandDepth(centimetres: .nan).millimetres == 0)
        #expect(CPRBandBatteryLevel.raw(forVolts: 3.8) == 0xBE)
        #expect(CPRBandBatteryLevel.raw(forVolts: 9) == 0xFE)
        let level = try CPRBandBatteryMapping.busLibrary.level(raw: 0xC3)
        #expect(CPRBandNotification.battery(level).encoded() == [0xC3])
        #expect(CPRBandNotification.battery(level).characteristicUUID == Self.battery)
        for raw in UInt8(0)...180 {
            let angle = try CPRBandAngle(raw: raw)
            #expect(try CPRBandAngle(bytes: CPRBandAngle(degrees: angle.degrees).encoded()).degrees == angle.degrees)
        }
    }
}
