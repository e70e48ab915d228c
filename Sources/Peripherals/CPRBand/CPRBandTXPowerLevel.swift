/// The TX power the band advertises, which the Bus library reads as a level index 0–7, not as dBm
/// (cpr-band-and-grip.md §A.9, `TXLevel`). BlueZ reports the advertised value as `Device1.TxPower`.
public enum CPRBandTXPowerLevel: Int, Sendable, CaseIterable {
    /// −18 dBm.
    case level0 = 0
    /// −15 dBm.
    case level1
    /// −12 dBm.
    case level2
    /// −9 dBm.
    case level3
    /// −6 dBm.
    case level4
    /// −2 dBm.
    case level5
    /// 0 dBm.
    case level6
    /// +5 dBm.
    case level7

    /// The transmit power in dBm (Bus `TXLevel.todB()`).
    public var dBm: Double {
        switch self {
        case .level0: -18
        case .level1: -15
        case .level2: -12
        case .level3: -9
        case .level4: -6
        case .level5: -2
        case .level6: 0
        case .level7: 5
        }
    }
}
