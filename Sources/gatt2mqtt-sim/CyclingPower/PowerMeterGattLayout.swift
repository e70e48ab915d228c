import BlueZ
import Peripherals

/// The meter's GATT table: Cycling Power (1818) with Cycling Power Measurement 2A63 (notify), Cycling Power Feature
/// 2A65 and Sensor Location 2A5D (read), the Cycling Power Control Point 2A66 (write, indicate); then the standard
/// Battery and Device Information: what a crank power meter offers.
enum PowerMeterGattLayout {
    static var services: [GattServiceDescription] {
        let own: [GattTable.Entry] = [
            (
                CyclingPowerGATT.service,
                [
                    (CyclingPowerGATT.measurement, .notify), (CyclingPowerGATT.feature, .read),
                    (CyclingPowerGATT.sensorLocation, .read), (CyclingPowerGATT.controlPoint, [.write, .indicate]),
                ]
            )
        ]
        return GattTable.services(own + StandardSimulatorServices.tables)
    }
}
