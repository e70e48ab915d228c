/// A device's connection, as published (retained) on `<family>/<id>/connection`.
public enum ConnectionState: String, Sendable {
    case disconnected
    case connecting
    case handshake
    case connected
}
