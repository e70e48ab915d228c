import BlueZ
import Peripherals

/// The sensor's GATT table: Environmental Sensing (181A) with Temperature 2A6E, Humidity 2A6F and Pressure 2A6D
/// (read, notify), then the standard Battery and Device Information: what a weather sensor offers.
enum EnvironmentalGattLayout {
    static var services: [GattServiceDescription] {
        let own: [GattTable.Entry] = [
            (
                EnvironmentalSensingGATT.service,
                [
                    (EnvironmentalSensingGATT.temperature, [.read, .notify]),
                    (EnvironmentalSensingGATT.humidity, [.read, .notify]),
                    (EnvironmentalSensingGATT.pressure, [.read, .notify]),
                ]
            )
        ]
        return GattTable.services(own + StandardSimulatorServices.tables)
    }
}
