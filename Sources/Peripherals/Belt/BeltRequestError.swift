/// A write the simulated belt refuses. The simulator answers it with the BlueZ error in `bluezErrorName`.
public typealias BeltRequestError = WriteRefusal<BeltWriteRefusalReason>

/// Why the simulated belt refuses a write.
public enum BeltWriteRefusalReason: WriteRefusalReason {
    /// No bytes.
    case empty
    /// The packet's length does not fit its opcode.
    case invalidLength(actual: Int)
    /// The first bytes match no known command.
    case unknownOpcode([UInt8])
    /// A field holds a value the belt does not know, named as in the Swift API.
    case outOfRange(field: String, value: Int)
    /// The characteristic is not writable.
    case notWritable

    /// The `org.bluez.Error.*` name a GATT server method should fail with.
    public var bluezErrorName: String {
        switch self {
        case .empty, .invalidLength: "org.bluez.Error.InvalidValueLength"
        case .notWritable: "org.bluez.Error.NotPermitted"
        case .unknownOpcode: "org.bluez.Error.NotSupported"
        case .outOfRange: "org.bluez.Error.Failed"
        }
    }
}
