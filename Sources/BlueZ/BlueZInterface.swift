/// BlueZ's bus name and the interface names this project uses.
public enum BlueZInterface {
    public static let service = "org.bluez"
    public static let adapter = "org.bluez.Adapter1"
    public static let device = "org.bluez.Device1"
    public static let gattService = "org.bluez.GattService1"
    /// bluetoothd's battery plugin claims a device's Battery Service (180F) and shows its level here.
    public static let battery = "org.bluez.Battery1"
    public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    public static let gattDescriptor = "org.bluez.GattDescriptor1"
    public static let gattManager = "org.bluez.GattManager1"
    public static let advertisingManager = "org.bluez.LEAdvertisingManager1"
    public static let advertisement = "org.bluez.LEAdvertisement1"
    public static let agentManager = "org.bluez.AgentManager1"
}
