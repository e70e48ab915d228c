/// The GATT layout of the Bluetooth SIG's Heart Rate service, as chest straps (Polar H10, Garmin HRM) expose it.
/// Every UUID is a 16-bit SIG value on the Bluetooth base UUID, spelt as BlueZ reports it (full, lower-case).
///
/// Where the facts of this family come from (public Bluetooth SIG documents, checked when it was written):
/// - Heart Rate Service 1.0 (HRS, adopted 2011-07-12) and Heart Rate Profile 1.0: service 180D with 2A37 Heart
///   Rate Measurement (notify), 2A38 Body Sensor Location (read) and 2A39 Heart Rate Control Point (write;
///   mandatory when the sensor reports energy expended), whose one defined value 0x01 resets energy expended and
///   whose other values the server refuses with the ATT application error 0x80.
/// - The SIG's characteristic definitions (the former GATT characteristic viewer, now the GATT Specification
///   Supplement): the flags and fields of 2A37, the locations of 2A38, and 2A19 Battery Level as a uint8 percent,
///   0–100 with 101–255 reserved.
/// - The Core specification: an attribute value holds at most 512 bytes, which bounds a measurement.
/// The wire facts are restated in the comments of the types that decode them, in our own words.
public enum HeartRateGATT: Sendable {
    /// Service UUIDs.
    public enum Service: Sendable {
        /// 180D, Heart Rate: the measurement, the sensor's location and the control point.
        public static let heartRate = BluetoothUUID.expand(0x180D)
        /// 180F, Battery: straps put their Battery Level here.
        public static let battery = BluetoothUUID.expand(0x180F)
    }

    /// Characteristic and descriptor UUIDs.
    public enum Characteristic: Sendable {
        /// 2A37, Heart Rate Measurement (notify); see `HeartRateMeasurement`.
        public static let measurement = BluetoothUUID.expand(0x2A37)
        /// 2A38, Body Sensor Location (read); see `HeartRateBodySensorLocation`.
        public static let bodySensorLocation = BluetoothUUID.expand(0x2A38)
        /// 2A39, Heart Rate Control Point (write); see `HeartRateControlPointCommand`.
        public static let controlPoint = BluetoothUUID.expand(0x2A39)
        /// 2A19, Battery Level (read), in the Battery service; see `HeartRateBatteryLevel`.
        public static let batteryLevel = BluetoothUUID.expand(0x2A19)
        /// 2902, the Client Characteristic Configuration descriptor that switches 2A37's notifications.
        public static let clientConfiguration = BluetoothUUID.expand(0x2902)
    }
}
