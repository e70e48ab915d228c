// libFuzzer target: the grip decoders of GripProfile.placeholder, what the bridge runs on every grip
// event notification and battery / device information read. Built and run by scripts/fuzz.
//
// Input: byte 0 picks the decoder (modulo 5: event(bytes:), batteryInfo(bytes:),
// firmwareVersion(bytes:), deviceInformationString, supportsFirmware(String)); the rest is the value.
// Checks: never traps; an event re-encodes to its byte; a battery level lies in 0–100; a firmware
// version prints as X.Y.Z and parses back to itself.
import Foundation
import Peripherals

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = input.first else { return 0 }
    let bytes = Array(input.dropFirst())
    let profile = GripProfile.placeholder

    switch selector % 5 {
    case 0:
        guard let event = try? profile.event(bytes: bytes) else { return 0 }
        guard (try? profile.encoded(event: event)) == bytes else { fatalError("\(event) is not \(bytes)") }
    case 1:
        guard let battery = try? profile.batteryInfo(bytes: bytes) else { return 0 }
        guard (0...100).contains(battery.level), profile.encodedBattery(level: battery.level) == bytes else {
            fatalError("battery \(battery) from \(bytes)")
        }
    case 2:
        guard let version = try? profile.firmwareVersion(bytes: bytes) else { return 0 }
        checkRoundTrip(version)
        _ = profile.supportsFirmware(version)
    case 3:
        _ = try? profile.deviceInformationString(
            characteristic: profile.deviceInformation.modelNumberUUID, bytes: bytes)
    default:
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? profile.supportsFirmware(text)
        if let version = GripFirmwareVersion(string: text) { checkRoundTrip(version) }
    }
    return 0
}

private func checkRoundTrip(_ version: GripFirmwareVersion) {
    guard GripFirmwareVersion(string: version.description) == version,
        let json = try? JSONEncoder().encode([version]),
        (try? JSONDecoder().decode([GripFirmwareVersion].self, from: json)) == [version]
    else { fatalError("\(version) does not survive printing and parsing") }
}
