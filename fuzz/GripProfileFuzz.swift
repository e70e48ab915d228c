// libFuzzer target: GripProfile.load(json:), what the bridge and the simulator run on a user's
// `--grip-profile` file, then the decoders driven by whatever profile loads. Built and run by
// scripts/fuzz.
//
// Input: the JSON file. Checks: never traps; a profile that loads prints with json() and loads back
// to itself; every event its table maps encodes to one byte that decodes to the same event; battery,
// firmware and matching work on it.
import Foundation
import Peripherals

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Data(UnsafeBufferPointer(start: data, count: size))
    guard let profile = try? GripProfile.load(json: input) else { return 0 }

    guard let printed = try? profile.json(), (try? GripProfile.load(json: printed)) == profile else {
        fatalError("the profile does not survive json()/load(json:)")
    }
    for event in GripEvent.allCases where !profile.unmappedEvents.contains(event) {
        guard let bytes = try? profile.encoded(event: event), (try? profile.event(bytes: bytes)) == event else {
            fatalError("\(event) does not survive encoding")
        }
    }
    for level in [0, 29, 30, 100, 101] {
        _ = try? profile.batteryInfo(bytes: profile.encodedBattery(level: level))
    }
    let version = GripFirmwareVersion(major: 1, minor: 2, patch: 3)
    _ = try? profile.firmwareVersion(bytes: profile.encodedFirmware(version))
    _ = profile.supportsFirmware(version)
    _ = profile.matches(name: "Fjorden Grip", serviceUUIDs: profile.advertisedServiceUUIDs)
    _ = profile.matches(name: nil, serviceUUIDs: ["180F", profile.eventServiceUUID])
    _ = profile.simulatorCharacteristics
    return 0
}
