// libFuzzer target: BeltRequest.decode(characteristic:bytes:), what the belt simulator runs on every
// write a client makes, then BeltState.apply (the simulator's belt). Built and run by scripts/fuzz.
//
// Input: byte 0 picks the characteristic (low nibble: index into BeltGATT.characteristics, handle
// order FE01 FE02 FE03 FE04 FE05 FE06 FE07 FE09 FE0A FE0B FE0C FE13 FE14) and its spelling (high
// nibble); the rest is the written value. Checks: never traps, the spelling does not matter, and every
// notification the simulated belt answers with decodes on the bridge side.
import Peripherals

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = input.first else { return 0 }
    let characteristics = BeltGATT.characteristics.map(\.uuid)
    let uuid = characteristics[Int(selector & 0x0F) % characteristics.count]
    let bytes = Array(input.dropFirst())

    guard let request = try? BeltRequest.decode(characteristic: spelled(uuid, style: selector >> 4), bytes: bytes)
    else { return 0 }
    guard (try? BeltRequest.decode(characteristic: uuid, bytes: bytes)) == request else {
        fatalError("decoding depends on the UUID spelling: \(request)")
    }
    for firmware: UInt16 in [45, 52] {
        var belt = BeltState(firmware: BeltFirmwareInfo(version: firmware))
        for notification in belt.apply(request) + belt.apply(.requestName) + [belt.keepAlive] {
            guard
                (try? BeltNotification.decode(
                    characteristic: notification.characteristicUUID, bytes: notification.encoded())) != nil
            else { fatalError("the bridge cannot decode \(notification), the answer to \(request)") }
        }
    }
    return 0
}
