/// A write the simulated device refuses. The simulator answers it with the BlueZ error in `bluezErrorName`.
public typealias Activ5RequestError = WriteRefusal<Activ5WriteRefusalReason>

/// Why the simulated device refuses a write.
public enum Activ5WriteRefusalReason: WriteRefusalReason {
    /// No bytes.
    case empty
    /// A 5A02 write that does not start with `'A'` (after an optional line feed).
    case missingCommandMarker
    /// A 5A02 command whose text matches no known command; the text is kept for logs.
    case unknownCommand(String)
    /// A write whose length does not fit the characteristic.
    case invalidLength(actual: Int)
    /// A value the device cannot hold, named as in the Swift API.
    case outOfRange(field: String, value: Int)
    /// The characteristic is not writable.
    case notWritable

    /// The `org.bluez.Error.*` name a GATT server method should fail with.
    public var bluezErrorName: String {
        switch self {
        case .empty, .invalidLength: "org.bluez.Error.InvalidValueLength"
        case .notWritable: "org.bluez.Error.NotPermitted"
        case .missingCommandMarker, .unknownCommand: "org.bluez.Error.NotSupported"
        case .outOfRange: "org.bluez.Error.Failed"
        }
    }
}
