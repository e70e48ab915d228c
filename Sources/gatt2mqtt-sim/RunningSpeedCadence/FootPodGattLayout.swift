import BlueZ
import Peripherals

/// The foot pod's GATT table: Running Speed and Cadence (1814) with RSC Measurement 2A53 (notify) and RSC Feature
/// 2A54 (read), then the standard Battery and Device Information: what a running sensor offers.
enum FootPodGattLayout {
    static var services: [GattServiceDescription] {
        let own: [GattTable.Entry] = [(RSCGATT.service, [(RSCGATT.measurement, .notify), (RSCGATT.feature, .read)])]
        return GattTable.services(own + StandardSimulatorServices.tables)
    }
}
