/// Opcodes and identifiers shared by the encoders and the parsers (belt.md §3, §4.3).
enum BeltWireCode {
    /// First byte of a basic parameter read or write ("1 parameter").
    static let basicParameter: UInt8 = 0x01
    /// OR-ed into a basic parameter id to write it.
    static let basicWriteFlag: UInt8 = 0x80
    /// Basic parameter ids.
    static let modeParameter: UInt8 = 0x01
    static let intensityParameter: UInt8 = 0x02
    static let headingOffsetParameter: UInt8 = 0x03
    static let nameParameter: UInt8 = 0x04
    /// First byte of an advanced parameter read request and of its notification.
    static let advancedParameter: UInt8 = 0x10
    /// First byte of an advanced parameter write.
    static let advancedParameterWrite: UInt8 = 0x11
    /// First byte of a reset.
    static let reset: UInt8 = 0x12
    /// FE03 opcodes beyond the channel indices 0–5.
    static let systemSignal: UInt8 = 0x20
    static let stop: UInt8 = 0x30
    static let allChannels: UInt8 = 0xFF
    /// FE07 opcode of a tone pattern.
    static let buzzerTonePattern: UInt8 = 0x01
    /// Longest rename suffix pybelt allows.
    static let maximumNameSuffixLength = 18
    /// Shortest orientation-notification period pybelt allows.
    static let minimumOrientationPeriodMs = 20
}
