/// One step of the bridge's connection handshake with an Activ5.
public enum Activ5HandshakeStep: Sendable, Equatable {
    /// Enable notifications on a characteristic (StartNotify).
    case subscribe(String)
    /// Read a characteristic; answered by its decoded value.
    case read(String)
    /// Wait for `TC5k` on 5A01.
    case awaitInitialMessage
    /// Write a command that has no answer (`TVGTIME`: no client parses a reply).
    case write(Activ5Command)
    /// Write a legacy request and wait for its reply (`ID1!` → `<x>i…`, `SN1!` → `<x>SN1…`).
    case request(Activ5Command)

    /// The characteristic the step acts on (5A01 for the wait).
    public var characteristicUUID: String {
        switch self {
        case .subscribe(let uuid), .read(let uuid): BluetoothUUID.normalized(uuid)
        case .awaitInitialMessage: Activ5GATT.Characteristic.legacyMessages
        case .write(let command), .request(let command): command.characteristicUUID
        }
    }

    /// Whether the bridge waits for a value from the device after this step.
    public var expectsAnswer: Bool {
        switch self {
        case .read, .awaitInitialMessage, .request: true
        case .subscribe, .write: false
        }
    }

    /// Whether a value from the device completes this step. Subscriptions and writes complete through BlueZ.
    public func isAnswered(by notification: Activ5Notification) -> Bool {
        switch (self, notification) {
        case (.awaitInitialMessage, .legacy(.initial)): true
        case (.read(let uuid), _): notification.characteristicUUID == BluetoothUUID.normalized(uuid)
        case (.request(.requestDeviceID(let wanted)), .legacy(.deviceIDPart(let half, _))): wanted == half
        case (.request(.requestSerialNumber(let wanted)), .legacy(.serialNumberPart(let half, _))): wanted == half
        default: false
        }
    }
}
