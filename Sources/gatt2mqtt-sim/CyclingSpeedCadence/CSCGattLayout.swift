import BlueZ
import Peripherals

/// The sensor's GATT table: Cycling Speed and Cadence (1816) with CSC Measurement 2A5B (notify), CSC Feature 2A5C
/// and Sensor Location 2A5D (read), SC Control Point 2A55 (write, indicate); then the standard Battery and Device
/// Information: what a speed and cadence sensor offers.
enum CSCGattLayout {
    static var services: [GattServiceDescription] {
        let own: [GattTable.Entry] = [
            (
                CSCGATT.service,
                [
                    (CSCGATT.measurement, .notify), (CSCGATT.feature, .read), (CSCGATT.sensorLocation, .read),
                    (SCControlPoint.characteristic, [.write, .indicate]),
                ]
            )
        ]
        return GattTable.services(own + StandardSimulatorServices.tables)
    }
}
