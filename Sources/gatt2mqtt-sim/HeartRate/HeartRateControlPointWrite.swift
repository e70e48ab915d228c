import Peripherals

/// A write to Heart Rate Control Point (2A39) the simulated strap refuses. The simulator answers it with the BlueZ
/// error in `bluezErrorName`, as the other families answer theirs (`WriteRefusal`).
typealias HeartRateControlPointRefusal = WriteRefusal<HeartRateControlPointRefusalReason>

/// Why the strap refuses a control point write. The Heart Rate Service defines one control point value, 0x01, and
/// has the sensor answer any other with the ATT application error 0x80, "Control Point Value Not Supported"; the
/// simulator answers so every write that is not exactly that one byte, empty and longer ones included.
enum HeartRateControlPointRefusalReason: WriteRefusalReason, CustomStringConvertible {
    /// The bytes written, which are not `[0x01]`.
    case valueNotSupported([UInt8])

    /// `org.bluez.Error.Failed`: the only error a GATT application can give that bluetoothd turns into an ATT
    /// application error (0x80–0x9F) rather than a core one.
    var bluezErrorName: String { "org.bluez.Error.Failed" }

    /// The ATT error the central receives.
    var attError: UInt8 { HeartRateControlPointCommand.valueNotSupportedError }

    /// The D-Bus error's message: the ATT error code in hex. Older bluetoothd answers every `org.bluez.Error.Failed`
    /// with 0x80 whatever the message; since 2022 (doc/gatt-api: `org.bluez.Error.Failed(string ecode)`, 0x80–0x9F)
    /// it reads the code from the message, and falls back to 0x80 only when that is not a number. An empty message
    /// would read as 0 there, out of range, and become "Unlikely Error": the code is spelt out so that both give 0x80.
    var bluezErrorMessage: String { "0x" + [attError].hex }

    var description: String {
        switch self {
        case .valueNotSupported(let bytes):
            "control point value \(bytes.isEmpty ? "(empty)" : bytes.hex) not supported (ATT error 0x\([attError].hex))"
        }
    }
}

/// What a write to the control point asks for: the one command the specification defines, or a refusal.
enum HeartRateControlPointWrite {
    /// The command `value` encodes, exactly as `HeartRateControlPointCommand.encoded()` writes it.
    /// - Throws: `HeartRateControlPointRefusal` for any other value, empty and longer ones included.
    static func command(from value: [UInt8]) throws(HeartRateControlPointRefusal) -> HeartRateControlPointCommand {
        guard let command = HeartRateControlPointCommand.allCases.first(where: { $0.encoded() == value }) else {
            throw HeartRateControlPointRefusal(
                characteristic: HeartRateGATT.Characteristic.controlPoint, reason: .valueNotSupported(value))
        }
        return command
    }
}
