/// How a `GattApplication` presents attribute handles and CCCDs to the Bluetooth stack.
///
/// The two stacks want opposite things. bluetoothd adds a CCCD to every notifying characteristic
/// itself and reads a characteristic's `Handle` as its *value* handle, so explicit CCCDs would be
/// duplicated and explicit handles could collide with its own GAP/GATT services: there the stack
/// should assign everything. BlueZoo creates no CCCD and numbers attributes back to back, which breaks
/// clients such as pybelt that find a value at declaration + 1 and map notifications through the CCCD:
/// there the application exports spaced handles and explicit 0x2902 descriptors.
public enum GattHandleLayout: Sendable, Equatable {
    /// Handles as described (declaration N, value N + 1, CCCD N + 2) and an explicit CCCD for every
    /// notifying characteristic. For BlueZoo.
    case explicit
    /// Every `Handle` 0 (the stack writes back what it chose) and no CCCD of ours. For bluetoothd.
    case assignedByStack
}
