/// Byte literals for the Activ5 golden vectors, written as in activ5.md.
enum Activ5TestBytes {
    /// Bytes from space-separated hex, e.g. `"41 54 19"`. Traps on a typo, which fails the test run loudly.
    static func hex(_ text: String) -> [UInt8] {
        text.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    /// A legacy device→host frame: 0x12, the ASCII text, 0x13.
    static func frame(_ payload: String) -> [UInt8] {
        [0x12] + Array(payload.utf8) + [0x13]
    }

    static let legacyMessages = "00005a01-0000-1000-8000-00805f9b34fb"
    static let legacyCommands = "00005a02-0000-1000-8000-00805f9b34fb"
    static let force = "0000f0fe-0000-1000-8000-00805f9b34fb"
    static let imu = "0000f0f5-0000-1000-8000-00805f9b34fb"
    static let timestamp = "0000f0f3-0000-1000-8000-00805f9b34fb"
    static let deviceID1 = "0000f0f7-0000-1000-8000-00805f9b34fb"
    static let deviceID2 = "0000f0f8-0000-1000-8000-00805f9b34fb"
    static let samplePeriod = "0000f0fa-0000-1000-8000-00805f9b34fb"
    static let battery = "00002a19-0000-1000-8000-00805f9b34fb"
    static let serial = "00002a25-0000-1000-8000-00805f9b34fb"
    static let cccd = "00002902-0000-1000-8000-00805f9b34fb"

    /// `\x12TC5k;1.00;04;BATOK\x13`, activ5.md §4.3.
    static let tc5k = hex("12 54 43 35 6B 3B 31 2E 30 30 3B 30 34 3B 42 41 54 4F 4B 13")
    /// The iOS isometric vector: `\x12IS9/IS\x13` and the stale tail `01;04;BATOK\x13`, activ5.md §4.2.
    static let iOSIsometric = hex("12 49 53 39 2F 49 53 13 30 31 3B 30 34 3B 42 41 54 4F 4B 13")
    /// The synthetic iOS IMU vector, activ5.md §5.2.
    static let syntheticIMU = hex("FF 0F FE 1F FF 07 FF 0F FE 1F FF 07 92 09 09 07")
    /// The realistic iOS IMU vector, activ5.md §5.2.
    static let realisticIMU = hex("3E 00 F2 FE AB 10 F6 FF DE FF EC FF E2 2A 16 00")
}
