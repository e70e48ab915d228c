/// The retained `gatt2mqtt/<gateway>/adapter/<name>` and its summary `gatt2mqtt/<gateway>/adapter`:
/// whether the gateway's adapters can be used, so that a dashboard can tell "no devices" from "no radio".
enum AdapterStatus: String, Sendable, CaseIterable {
    case powered, off, missing, unauthorized

    /// From what BlueZ shows: access to it refused by the bus policy, its absence (bluetoothd not running,
    /// or no such adapter: `powered` nil), or the adapter's power.
    static func of(powered: Bool?, serviceRunning: Bool, accessDenied: Bool) -> AdapterStatus {
        if accessDenied { return .unauthorized }
        guard serviceRunning, let powered else { return .missing }
        return powered ? .powered : .off
    }

    /// The gateway's adapters together: usable when one is; otherwise the most telling reason (a
    /// refused bus policy, then an adapter switched off, then none there).
    static func summary(_ statuses: [AdapterStatus]) -> AdapterStatus {
        for status in [AdapterStatus.powered, .unauthorized, .off] where statuses.contains(status) { return status }
        return .missing
    }
}
