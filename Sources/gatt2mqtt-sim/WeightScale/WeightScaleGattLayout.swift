import BlueZ
import Peripherals

/// The scale's GATT table: Weight Scale (181D) with Weight Measurement 2A9D (indicate) and Weight Scale Feature 2A9E
/// (read), then the standard Battery and Device Information: what a bathroom scale offers.
enum WeightScaleGattLayout {
    static var services: [GattServiceDescription] {
        let own: [GattTable.Entry] = [
            (WeightScaleGATT.service, [(WeightScaleGATT.measurement, .indicate), (WeightScaleGATT.feature, .read)])
        ]
        return GattTable.services(own + StandardSimulatorServices.tables)
    }
}
