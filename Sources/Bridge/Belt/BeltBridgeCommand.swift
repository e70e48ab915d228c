import Peripherals

/// A parsed `belt/<id>/cmd/<name>`: what the session has to do.
enum BeltBridgeCommand: Sendable {
    /// One GATT write (confirmed by the belt when the command has an acknowledgement).
    case write(BeltCommand)
    /// Orientation notifications on or off (the FE0C subscription), and/or their period.
    case orientation(enabled: Bool?, periodMs: Int?)
}
