// libFuzzer target: Activ5Request.decode(characteristic:bytes:) and decodeClientConfiguration, what
// the Activ5 simulator runs on every write, then Activ5State.apply (the simulator's device). Built and
// run by scripts/fuzz.
//
// Input: byte 0 picks the characteristic (index into `characteristics` below, modulo its count) and,
// with bit 7, a CCCD write instead of a value write; the rest is the written value. Checks: never
// traps, and every notification the simulated device answers with decodes on the bridge side.
import Peripherals

private let characteristics = [
    Activ5GATT.Characteristic.legacyCommands,  // 0: 5A02
    Activ5GATT.Characteristic.samplePeriod,  // 1: F0FA
    Activ5GATT.Characteristic.legacyMessages,  // 2: 5A01
    Activ5GATT.Characteristic.force,  // 3: F0FE
    Activ5GATT.Characteristic.imu,  // 4: F0F5
    Activ5GATT.Characteristic.deviceIDPart1,  // 5: F0F7
    Activ5GATT.Characteristic.batteryLevel,  // 6: 2A19
]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = input.first else { return 0 }
    let uuid = characteristics[Int(selector & 0x7F) % characteristics.count]
    let bytes = Array(input.dropFirst())

    let decoded =
        selector & 0x80 != 0
        ? try? Activ5Request.decodeClientConfiguration(characteristic: uuid, bytes: bytes)
        : try? Activ5Request.decode(characteristic: uuid, bytes: bytes)
    guard let request = decoded else { return 0 }
    for wireProtocol in [Activ5Protocol.legacy, .new] {
        var device = Activ5State(wireProtocol: wireProtocol)
        var notifications = device.apply(request, at: 1)
        notifications += device.apply(.subscribe(Activ5GATT.Characteristic.legacyMessages), at: 2)
        notifications += [device.legacyForceNotification(), device.forceNotification(), device.imuNotification(at: 3)]
            .compactMap { $0 }
        for notification in notifications {
            guard
                (try? Activ5Notification.decode(
                    characteristic: notification.characteristicUUID, bytes: notification.encoded())) != nil
            else { fatalError("the bridge cannot decode \(notification), the answer to \(request)") }
        }
    }
    return 0
}
