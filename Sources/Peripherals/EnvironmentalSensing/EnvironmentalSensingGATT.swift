/// The Bluetooth SIG's Environmental Sensing service (0x181A, ESS 1.0) and the three values the GATT Specification
/// Supplement defines for weather (3.204 Temperature, 3.120 Humidity, 3.181 Pressure), encoded from the
/// specification alone for the simulator, so that the shipped declaration that decodes them is checked against an
/// independent encoder (issue #59).
public enum EnvironmentalSensingGATT {
    public static let service = BluetoothUUID.expand(0x181A)
    public static let temperature = BluetoothUUID.expand(0x2A6E)
    public static let humidity = BluetoothUUID.expand(0x2A6F)
    public static let pressure = BluetoothUUID.expand(0x2A6D)

    /// Temperature: sint16 in 0.01 °C, little-endian; -327.68 °C (0x8000) means "not known".
    public static func temperature(hundredthsOfADegree: Int16) -> [UInt8] {
        withUnsafeBytes(of: hundredthsOfADegree.littleEndian, Array.init)
    }

    /// Humidity: uint16 in 0.01 %, little-endian; 0xFFFF means "not known".
    public static func humidity(hundredthsOfAPercent: UInt16) -> [UInt8] {
        withUnsafeBytes(of: hundredthsOfAPercent.littleEndian, Array.init)
    }

    /// Pressure: uint32 in 0.1 Pa, little-endian.
    public static func pressure(tenthsOfAPascal: UInt32) -> [UInt8] {
        withUnsafeBytes(of: tenthsOfAPascal.littleEndian, Array.init)
    }
}
