// libFuzzer target: CPRBandNotification.decode(characteristic:bytes:mapping:), what the bridge runs on
// every CPR-Band notification and battery read. Built and run by scripts/fuzz.
//
// Input: byte 0 picks the characteristic (bits 0–1: FFF1 depth, FFF2 angle, FFF3 battery, FFF4
// command) and the battery mapping (bits 2–3: busLibrary, fullSpan, or one built from the next six
// bytes, as a configuration file could set it); the rest is the value. Checks: never traps, the
// percentage is finite, and whatever decodes re-encodes into bytes that decode to the same value.
import Peripherals

private let characteristics = [
    CPRBandGATT.Characteristic.depth, CPRBandGATT.Characteristic.angle, CPRBandGATT.Characteristic.battery,
    CPRBandGATT.Characteristic.command,
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = Array(UnsafeBufferPointer(start: data, count: size))[...]
    guard let selector = input.popFirst() else { return 0 }
    let uuid = characteristics[Int(selector & 0x03)]
    let mapping: CPRBandBatteryMapping
    switch (selector >> 2) & 0x03 {
    case 0: mapping = .busLibrary
    case 1: mapping = .fullSpan
    default:
        guard input.count >= 6 else { return 0 }
        let parameters = Array(input.prefix(6))
        input = input.dropFirst(6)
        mapping = customMapping(parameters)
    }
    let bytes = Array(input)

    guard let value = try? CPRBandNotification.decode(characteristic: uuid, bytes: bytes, mapping: mapping) else {
        return 0
    }
    if case .battery(let level) = value, !level.percent.isFinite { fatalError("battery \(level)") }
    if case .angle(let angle) = value, !(-90...90).contains(angle.degrees) { fatalError("angle \(angle)") }
    guard value.characteristicUUID == uuid,
        (try? CPRBandNotification.decode(characteristic: uuid, bytes: value.encoded(), mapping: mapping)) == value
    else { fatalError("\(value) does not survive encode/decode") }
    return 0
}

/// A mapping from six bytes: a fixed entry, the voltage byte range, volts per unit, the clamp range and
/// the span (zero included, to reach the division), all finite as JSON would give them.
private func customMapping(_ b: [UInt8]) -> CPRBandBatteryMapping {
    let clampLow = Double(b[4] & 0x0F) / 4
    let clampHigh = Double(b[4] >> 4) / 4
    return CPRBandBatteryMapping(
        fixedEntries: [.init(raw: b[0], percent: Double(b[0]) / 2)],
        voltageBytes: min(b[1], b[2])...max(b[1], b[2]), voltsPerUnit: Double(b[3]) / 1000,
        clampVolts: min(clampLow, clampHigh)...max(clampLow, clampHigh), emptyVolts: clampLow,
        spanVolts: Double(Int8(bitPattern: b[5])) / 100)
}
