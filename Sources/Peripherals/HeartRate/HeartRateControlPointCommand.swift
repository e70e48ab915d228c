/// A write to Heart Rate Control Point (2A39): one byte, of which the specification defines one value.
///
/// A sensor that reports energy expended must have the control point; every value but 0x01 is reserved, and the
/// sensor answers a write of one with `valueNotSupportedError` instead of a write response.
public enum HeartRateControlPointCommand: UInt8, Sendable, CaseIterable {
    /// 0x01: start counting energy expended from zero again.
    case resetEnergyExpended = 0x01

    /// The ATT application error (0x80) a sensor answers for a control point value it does not support.
    public static let valueNotSupportedError: UInt8 = 0x80

    /// The characteristic written to.
    public var characteristicUUID: String { HeartRateGATT.Characteristic.controlPoint }

    /// The bytes written, e.g. `01` for `resetEnergyExpended`.
    public func encoded() -> [UInt8] { [rawValue] }
}
