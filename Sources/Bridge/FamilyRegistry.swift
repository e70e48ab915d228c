/// The device families the gateway serves: adding one is a line here, the rest lives in its folders
/// (`Peripherals/<Family>`, `Bridge/<Family>`, and its simulator in `gatt2mqtt-sim`).
enum FamilyRegistry {
    static let drivers: [any FamilyDriver.Type] = [BeltDriver.self, Activ5Driver.self, CPRBandDriver.self, GripDriver.self]
}
