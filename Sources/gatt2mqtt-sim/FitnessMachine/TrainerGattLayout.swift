import BlueZ
import Peripherals

/// The trainer's GATT table: Fitness Machine (1826) with Fitness Machine Feature 2ACC (read), Indoor Bike Data 2AD2
/// (notify) and the Fitness Machine Control Point 2AD9 (write, indicate); then the standard Battery and Device
/// Information: what a smart trainer offers.
enum TrainerGattLayout {
    static var services: [GattServiceDescription] {
        let own: [GattTable.Entry] = [
            (
                FitnessMachineGATT.service,
                [
                    (FitnessMachineGATT.feature, .read), (FitnessMachineGATT.indoorBikeData, .notify),
                    (FitnessMachineGATT.controlPoint, [.write, .indicate]),
                ]
            )
        ]
        return GattTable.services(own + StandardSimulatorServices.tables)
    }
}
