// libFuzzer target: CPRBandRequest.decode(characteristic:bytes:), what the CPR-Band simulator runs on
// every write, then CPRBandState.apply (the simulator's band). Built and run by scripts/fuzz.
//
// Input: byte 0 picks the characteristic (bits 0–1: FFF1, FFF2, FFF3, FFF4), the band's starting mode
// (bits 2–4) and whether it enforces the ready-only rule (bit 5); the rest is the written value.
// Checks: never traps, and every request survives byte → request → byte.
import Peripherals

private let characteristics = [
    CPRBandGATT.Characteristic.depth, CPRBandGATT.Characteristic.angle, CPRBandGATT.Characteristic.battery,
    CPRBandGATT.Characteristic.command,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = input.first else { return 0 }
    let uuid = characteristics[Int(selector & 0x03)]
    let bytes = Array(input.dropFirst())

    guard let requests = try? CPRBandRequest.decode(characteristic: uuid, bytes: bytes) else { return 0 }
    guard requests.map(\.byte) == bytes, requests.allSatisfy({ CPRBandRequest(byte: $0.byte) == $0 }) else {
        fatalError("\(bytes) decodes to \(requests)")
    }
    let modes = CPRBandMode.allCases
    var band = CPRBandState(
        mode: modes[Int(selector >> 2 & 0x07) % modes.count], enforcesReadyOnlyRule: selector & 0x20 == 0)
    // One request per write, as the bridge sends them, then the same bytes as one write.
    for request in requests { _ = band.apply(request) }
    _ = band.apply(requests)
    _ = band.batteryReadValue
    _ = try? CPRBandBatteryLevel(bytes: band.batteryReadValue)
    return 0
}
