import Foundation
import Testing

@testable import Peripherals

@Suite struct GripProfileTests {
    @Test func placeholderIsMarkedHypothetical() throws {
        let profile = GripProfile.placeholder
        #expect(profile.isHypothetical)
        #expect(profile.notes.hasPrefix("HYPOTHETICAL"))
        #expect(profile.namePrefixes == ["Fjorden"])
        #expect(profile.advertisedServiceUUIDs.isEmpty)
        #expect(profile.pairingRequired)
        #expect(profile.reconnectTimeoutSeconds == 5.0)
        #expect(profile.minimumFirmware == nil)
        #expect(profile.events.count == 14)
        #expect(profile.unmappedEvents.isEmpty)
        #expect(profile.battery.serviceUUID == "0000180f-0000-1000-8000-00805f9b34fb")
        #expect(profile.battery.levelCharacteristicUUID == "00002a19-0000-1000-8000-00805f9b34fb")
        #expect(profile.battery.lowThresholdPercent == 30)
        #expect(profile.deviceInformation.serviceUUID == "0000180a-0000-1000-8000-00805f9b34fb")
        #expect(
            profile.deviceInformation.characteristicUUIDs == [
                "00002a29-0000-1000-8000-00805f9b34fb", "00002a24-0000-1000-8000-00805f9b34fb",
                "00002a27-0000-1000-8000-00805f9b34fb", "00002a26-0000-1000-8000-00805f9b34fb",
            ])
        #expect(profile.normalized() == profile)
        try profile.validate()
    }

    @Test func sdkEventNamesInDeclarationOrder() {
        #expect(
            GripEvent.allCases.map(\.rawValue) == [
                "shutterButtonDown", "shutterButtonReleased", "shutterButtonHalfDown", "dialButtonCW", "dialButtonCCW",
                "dialButtonPress", "dialButtonLongPress", "fnButtonPress", "fnButtonLongPress", "zoomLeverHoldLeft",
                "zoomLeverHoldRight", "zoomLeverLeft", "zoomLeverRight", "zoomLeverNeutral",
            ])
    }

    @Test func jsonRoundTrip() throws {
        var profile = GripProfile.placeholder
        profile.minimumFirmware = GripFirmwareVersion(major: 1, minor: 2, patch: 0)
        let json = try profile.json()
        let text = try #require(String(data: json, encoding: .utf8))
        #expect(text.contains("\"minimumFirmware\" : \"1.2.0\""))
        #expect(text.contains("\"event\" : \"zoomLeverNeutral\""))
        #expect(text.contains("\"isHypothetical\" : true"))
        #expect(try GripProfile.load(json: json) == profile)
        #expect(try GripProfile.load(json: GripProfile.placeholder.json()) == .placeholder)
    }

    @Test func handWrittenProfileIsNormalised() throws {
        let json = Data(
            """
            {
              "isHypothetical": false,
              "notes": "captured",
              "namePrefixes": ["Grip"],
              "advertisedServiceUUIDs": ["0xFD00"],
              "pairingRequired": true,
              "reconnectTimeoutSeconds": 8,
              "eventServiceUUID": "0E8A1F2C-3B4D-4E5F-8A6B-7C8D9E0F1A2B",
              "eventCharacteristicUUID": "0E8A1F2D-3B4D-4E5F-8A6B-7C8D9E0F1A2B",
              "events": [{"byte": 16, "event": "shutterButtonHalfDown"}, {"byte": 17, "event": "shutterButtonDown"}],
              "battery": {"serviceUUID": "180F", "levelCharacteristicUUID": "2A19", "lowThresholdPercent": 20},
              "deviceInformation": {"serviceUUID": "180a", "manufacturerNameUUID": "2a29", "modelNumberUUID": "2a24",
                                    "hardwareRevisionUUID": "2a27", "firmwareRevisionUUID": "2a26"},
              "minimumFirmware": "v2.0.1"
            }
            """.utf8)
        let profile = try GripProfile.load(json: json)
        #expect(!profile.isHypothetical)
        #expect(profile.advertisedServiceUUIDs == ["0000fd00-0000-1000-8000-00805f9b34fb"])
        #expect(profile.eventCharacteristicUUID == "0e8a1f2d-3b4d-4e5f-8a6b-7c8d9e0f1a2b")
        #expect(profile.battery.levelCharacteristicUUID == "00002a19-0000-1000-8000-00805f9b34fb")
        #expect(profile.deviceInformation.firmwareRevisionUUID == "00002a26-0000-1000-8000-00805f9b34fb")
        #expect(profile.minimumFirmware == GripFirmwareVersion(major: 2, minor: 0, patch: 1))
        #expect(profile.unmappedEvents.count == 12)
        #expect(try profile.event(bytes: [0x10]) == .shutterButtonHalfDown)
        #expect(profile.matches(name: "Other", serviceUUIDs: ["FD00"]))
    }

    @Test func malformedJSONIsRejected() {
        let badVersion = Data(#"{"minimumFirmware": "1.2"}"#.utf8)
        #expect(throws: DecodingError.self) { try GripProfile.load(json: badVersion) }
        var json = (try? GripProfile.placeholder.json()).flatMap { String(data: $0, encoding: .utf8) } ?? ""
        json = json.replacingOccurrences(of: "\"zoomLeverNeutral\"", with: "\"zoomLeverUp\"")
        #expect(throws: DecodingError.self) { try GripProfile.load(json: Data(json.utf8)) }
    }

    @Test func validationNamesTheField() {
        func field(_ change: (inout GripProfile) -> Void) -> String? {
            var profile = GripProfile.placeholder
            change(&profile)
            do {
                try profile.validate()
                return nil
            } catch {
                return error.field
            }
        }
        #expect(field { $0.events.append(.init(byte: 0x01, event: .fnButtonPress)) } == "events")
        #expect(field { $0.eventCharacteristicUUID = "not-a-uuid" } == "eventCharacteristicUUID")
        #expect(field { $0.battery.levelCharacteristicUUID = "2A1" } == "battery.levelCharacteristicUUID")
        #expect(field { $0.deviceInformation.firmwareRevisionUUID = "" } == "deviceInformation.firmwareRevisionUUID")
        #expect(field { $0.advertisedServiceUUIDs = ["xyz"] } == "advertisedServiceUUIDs")
        #expect(field { $0.namePrefixes = [] } == "namePrefixes")
        #expect(field { $0.battery.lowThresholdPercent = 101 } == "battery.lowThresholdPercent")
        #expect(field { $0.reconnectTimeoutSeconds = 0 } == "reconnectTimeoutSeconds")
        #expect(field { $0.events.removeLast() } == nil)  // a partial table is allowed
    }

    @Test(arguments: [
        ("Fjorden Grip", true),
        ("Fjorden Grip Simulator", true),
        ("fjorden", true),
        ("CPR-BAND", false),
        ("", false),
    ])
    func placeholderMatchesOnTheName(name: String, expected: Bool) {
        #expect(GripProfile.placeholder.matches(name: name, serviceUUIDs: []) == expected)
    }

    @Test func placeholderNeverMatchesWithoutAName() {
        #expect(!GripProfile.placeholder.matches(name: nil, serviceUUIDs: ["180F"]))
    }
}
