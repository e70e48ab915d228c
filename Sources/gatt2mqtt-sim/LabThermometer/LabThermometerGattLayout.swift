import BlueZ
import Peripherals

/// The lab thermometer of docs/devices.md's worked example, a device of its maker's own: service `…aa00` with its
/// readings `…aa01` (notify), where it hangs `…aa02` (read), its sample count `…aa03` (read) and its calibration
/// control point `…aa04` (write, indicate); then the standard Battery and Device Information. The UUIDs and the bytes
/// are those the page describes in words, so that the page's declaration is tried against a device built from the
/// same description, not from the declaration.
enum LabThermometerGattLayout {
    static let service = uuid("aa00")
    static let reading = uuid("aa01")
    static let place = uuid("aa02")
    static let samples = uuid("aa03")
    static let calibration = uuid("aa04")

    static var services: [GattServiceDescription] {
        let own: [GattTable.Entry] = [
            (service, [(reading, .notify), (place, .read), (samples, .read), (calibration, [.write, .indicate])])
        ]
        return GattTable.services(own + StandardSimulatorServices.tables)
    }

    /// The maker's base UUID with `short` in its first group's low half.
    private static func uuid(_ short: String) -> String { "0000\(short)-1234-5678-9abc-def012345678" }
}
