import Testing

@testable import Peripherals

@Suite struct GripDecodingTests {
    static let profile = GripProfile.placeholder
    static let eventCharacteristic = "c73bd0bc-e6c7-4580-820f-294274854b28"
    static let batteryLevel = "00002a19-0000-1000-8000-00805f9b34fb"
    static let firmwareRevision = "00002a26-0000-1000-8000-00805f9b34fb"

    @Test(arguments: [
        (UInt8(0x01), GripEvent.shutterButtonDown),
        (0x02, .shutterButtonReleased),
        (0x03, .shutterButtonHalfDown),
        (0x04, .dialButtonCW),
        (0x05, .dialButtonCCW),
        (0x06, .dialButtonPress),
        (0x07, .dialButtonLongPress),
        (0x08, .fnButtonPress),
        (0x09, .fnButtonLongPress),
        (0x0A, .zoomLeverHoldLeft),
        (0x0B, .zoomLeverHoldRight),
        (0x0C, .zoomLeverLeft),
        (0x0D, .zoomLeverRight),
        (0x0E, .zoomLeverNeutral),
    ])
    func placeholderEventTable(byte: UInt8, event: GripEvent) throws {
        #expect(try Self.profile.event(bytes: [byte]) == event)
        #expect(try Self.profile.encoded(event: event) == [byte])
    }

    @Test(arguments: [UInt8(0x00), 0x0F, 0xFF])
    func unknownEventByteIsAnError(byte: UInt8) {
        #expect(throws: GripDecodeError(characteristic: Self.eventCharacteristic, reason: .unknownEventByte(byte))) {
            try Self.profile.event(bytes: [byte])
        }
    }

    @Test func eventPayloadMustBeOneByte() {
        #expect(throws: GripDecodeError(characteristic: Self.eventCharacteristic, reason: .empty)) {
            try Self.profile.event(bytes: [])
        }
        #expect(
            throws: GripDecodeError(
                characteristic: Self.eventCharacteristic, reason: .unexpectedLength(expected: 1, actual: 2))
        ) { try Self.profile.event(bytes: [0x01, 0x00]) }
    }

    @Test func eventWithoutAByteCannotBeSimulated() {
        var profile = Self.profile
        profile.events.removeAll { $0.event == .dialButtonCW }
        #expect(throws: FieldError(field: "events", message: "no byte for dialButtonCW")) {
            try profile.encoded(event: .dialButtonCW)
        }
        #expect(profile.unmappedEvents == [.dialButtonCW])
    }

    @Test func replacedTableDrivesDecoding() throws {
        var profile = Self.profile
        profile.events = [.init(byte: 0xA0, event: .zoomLeverLeft)]
        #expect(try profile.event(bytes: [0xA0]) == .zoomLeverLeft)
        #expect(throws: GripDecodeError.self) { try profile.event(bytes: [0x0C]) }
    }

    @Test(arguments: [
        (UInt8(0), 0, true),
        (29, 29, true),
        (30, 30, false),
        (31, 31, false),
        (100, 100, false),
    ])
    func batteryIsLowBelowThirty(raw: UInt8, level: Int, low: Bool) throws {
        #expect(try Self.profile.batteryInfo(bytes: [raw]) == GripBatteryInfo(level: level, isLow: low))
    }

    @Test func batteryErrors() {
        #expect(throws: GripDecodeError(characteristic: Self.batteryLevel, reason: .batteryLevelOutOfRange(101))) {
            try Self.profile.batteryInfo(bytes: [101])
        }
        #expect(throws: GripDecodeError(characteristic: Self.batteryLevel, reason: .empty)) {
            try Self.profile.batteryInfo(bytes: [])
        }
    }

    @Test func batteryEncoderClamps() {
        #expect(Self.profile.encodedBattery(level: 55) == [55])
        #expect(Self.profile.encodedBattery(level: 140) == [100])
        #expect(Self.profile.encodedBattery(level: -3) == [0])
    }

    @Test(arguments: [
        ("1.2.3", GripFirmwareVersion?.some(.init(major: 1, minor: 2, patch: 3))),
        ("v1.10.0", .init(major: 1, minor: 10, patch: 0)),
        (" 2.0.0\0\0", .init(major: 2, minor: 0, patch: 0)),
        ("1.2", nil),
        ("1.2.3.4", nil),
        ("1.2.x", nil),
        ("1..3", nil),
        ("1.2.3-rc.1", nil),
        ("-1.2.3", nil),
        ("", nil),
    ])
    func firmwareParsing(text: String, version: GripFirmwareVersion?) {
        #expect(GripFirmwareVersion(string: text) == version)
    }

    @Test(arguments: [
        ("1.2.0", true),
        ("1.2.1", true),
        ("1.10.0", true),  // numeric, not lexical
        ("2.0.0", true),
        ("1.1.9", false),
        ("1.9.99", true),
        ("0.9.0", false),
    ])
    func firmwareAgainstTheMinimum(revision: String, supported: Bool) throws {
        var profile = Self.profile
        profile.minimumFirmware = GripFirmwareVersion(string: "1.2.0")
        #expect(try profile.supportsFirmware(revision) == supported)
        #expect(try profile.supportsFirmware(profile.firmwareVersion(bytes: Array(revision.utf8))) == supported)
    }

    @Test func noMinimumAcceptsEveryVersion() throws {
        #expect(try Self.profile.supportsFirmware("0.0.1"))
        #expect(throws: GripDecodeError(characteristic: Self.firmwareRevision, reason: .invalidFirmwareVersion("1.0")))
        {
            try Self.profile.supportsFirmware("1.0")
        }
    }

    @Test func firmwareCharacteristicRoundTrip() throws {
        let version = GripFirmwareVersion(major: 1, minor: 3, patch: 2)
        let bytes = Self.profile.encodedFirmware(version)
        #expect(bytes == Array("1.3.2".utf8))
        #expect(try Self.profile.firmwareVersion(bytes: bytes + [0, 0]) == version)
        #expect(throws: GripDecodeError(characteristic: Self.firmwareRevision, reason: .notUTF8)) {
            try Self.profile.firmwareVersion(bytes: [0xFF, 0xFE])
        }
        #expect(throws: GripDecodeError(characteristic: Self.firmwareRevision, reason: .invalidFirmwareVersion("abc")))
        {
            try Self.profile.firmwareVersion(bytes: Array("abc".utf8))
        }
    }

    @Test func deviceInformationStrings() throws {
        let bytes = Self.profile.encodedDeviceInformation("Fjorden")
        #expect(bytes == [0x46, 0x6A, 0x6F, 0x72, 0x64, 0x65, 0x6E])
        #expect(try Self.profile.deviceInformationString(characteristic: "2A29", bytes: bytes + [0]) == "Fjorden")
    }

    @Test func simulatorGATTTableFollowsTheProfile() {
        let table = Self.profile.simulatorCharacteristics
        #expect(table.map(\.uuid).first == Self.eventCharacteristic)
        #expect(table.first?.service == "597f3fa1-b263-40be-b20f-67c584d15d34")
        #expect(
            table.map(\.flags.bluezFlags) == [["notify"], ["read", "notify"], ["read"], ["read"], ["read"], ["read"]])
        #expect(table.filter { $0.service == "0000180a-0000-1000-8000-00805f9b34fb" }.count == 4)
    }

    @Test func firmwareOrderingIsNumeric() throws {
        let versions = ["1.10.0", "1.2.10", "1.2.9", "0.9.9"].compactMap(GripFirmwareVersion.init(string:))
        #expect(versions.sorted().map(\.description) == ["0.9.9", "1.2.9", "1.2.10", "1.10.0"])
        #expect(GripFirmwareVersion(major: -1, minor: 0, patch: 0).description == "0.0.0")
    }
}
