// libFuzzer target: Activ5Notification.decode(characteristic:bytes:), what the bridge runs on every
// Activ5 notification and read value. Built and run by scripts/fuzz.
//
// Input: byte 0 picks the characteristic (index into `characteristics` below, modulo its count); the
// rest is the value. Checks: never traps, and whatever decodes re-encodes (as the simulator would
// send it) into bytes that decode again, to the same value when the input is ASCII (the protocol's
// text is; other bytes may regroup into different Characters once NULs and frame bytes are gone).
import Peripherals

private let characteristics = [
    Activ5GATT.Characteristic.legacyMessages,  // 0: 5A01
    Activ5GATT.Characteristic.legacyCommands,  // 1: 5A02
    Activ5GATT.Characteristic.force,  // 2: F0FE
    Activ5GATT.Characteristic.olderForce,  // 3: F0F1
    Activ5GATT.Characteristic.timestamp,  // 4: F0F3
    Activ5GATT.Characteristic.imu,  // 5: F0F5
    Activ5GATT.Characteristic.deviceIDPart1,  // 6: F0F7
    Activ5GATT.Characteristic.deviceIDPart2,  // 7: F0F8
    Activ5GATT.Characteristic.samplePeriod,  // 8: F0FA
    Activ5GATT.Characteristic.batteryLevel,  // 9: 2A19
    Activ5GATT.Characteristic.serialNumber,  // 10: 2A25
    Activ5GATT.Characteristic.clientConfiguration,  // 11: 2902
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = input.first else { return 0 }
    let uuid = characteristics[Int(selector) % characteristics.count]
    let bytes = Array(input.dropFirst())

    guard let value = try? Activ5Notification.decode(characteristic: uuid, bytes: bytes) else { return 0 }
    _ = value.newtons
    guard value.characteristicUUID == uuid else { fatalError("\(value) decoded on \(uuid)") }
    guard let again = try? Activ5Notification.decode(characteristic: uuid, bytes: value.encoded()) else {
        fatalError("\(value) does not decode once encoded")
    }
    guard again == value || !bytes.allSatisfy({ $0 < 0x80 }) else {
        fatalError("\(value) comes back as \(again)")
    }
    return 0
}
