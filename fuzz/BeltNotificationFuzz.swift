// libFuzzer target: BeltNotification.decode(characteristic:bytes:), what the bridge runs on every
// belt notification and read value. Built and run by scripts/fuzz.
//
// Input: byte 0 picks the characteristic (low nibble: index into BeltGATT.characteristics, handle
// order FE01 FE02 FE03 FE04 FE05 FE06 FE07 FE09 FE0A FE0B FE0C FE13 FE14) and its spelling (high
// nibble); the rest is the value. Besides "never traps", it checks that the spelling of the UUID does
// not matter and that whatever decodes re-encodes (as the simulator would send it) into bytes that
// decode again, stably.
import Peripherals

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = input.first else { return 0 }
    let characteristics = BeltGATT.characteristics.map(\.uuid)
    let uuid = characteristics[Int(selector & 0x0F) % characteristics.count]
    let bytes = Array(input.dropFirst())

    guard let value = try? BeltNotification.decode(characteristic: spelled(uuid, style: selector >> 4), bytes: bytes)
    else { return 0 }
    guard (try? BeltNotification.decode(characteristic: uuid, bytes: bytes)) == value else {
        fatalError("decoding depends on the UUID spelling: \(value)")
    }
    guard value.characteristicUUID == uuid else { fatalError("\(value) decoded on \(uuid)") }
    guard let again = try? BeltNotification.decode(characteristic: value.characteristicUUID, bytes: value.encoded()),
        let third = try? BeltNotification.decode(characteristic: again.characteristicUUID, bytes: again.encoded()),
        third == again
    else { fatalError("\(value) does not survive encode/decode") }
    return 0
}
