/// A write the simulated band refuses. The simulator answers it with the BlueZ error in `bluezErrorName`.
public typealias CPRBandRequestError = WriteRefusal<CPRBandWriteRefusalReason>

/// Why the simulated band refuses a write.
public enum CPRBandWriteRefusalReason: WriteRefusalReason {
    /// No bytes.
    case empty
    /// The characteristic is not writable (only FFF4 is).
    case notWritable

    /// The `org.bluez.Error.*` name a GATT server method should fail with.
    public var bluezErrorName: String {
        switch self {
        case .empty: "org.bluez.Error.InvalidValueLength"
        case .notWritable: "org.bluez.Error.NotPermitted"
        }
    }
}
