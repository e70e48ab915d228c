import Peripherals

/// `--minimum-orientation-period-ms`: the shortest orientation period the simulated belt accepts.
///
/// pybelt refuses periods under 20 ms (belt.md §5), and so do the shared decoder (`BeltRequest`) and the
/// bridge; the benchmark needs 5 ms (200 values a second). A floor under 20 ms lets the simulator take
/// such a period from `--orientation-period-ms` and from a central's parameter-0x0F write, which
/// `request(characteristic:bytes:)` reads before the shared decoder would reject it. At the default of
/// 20 ms nothing changes.
struct BeltOrientationPeriodFloor: Sendable {
    /// pybelt's minimum, the default floor.
    static let wireMinimumMilliseconds = 20

    /// The floor, 1 … `wireMinimumMilliseconds`.
    var milliseconds = Self.wireMinimumMilliseconds

    /// The first bytes of a parameter-0x0F write on FE05 (`11 0F`), taken from the shared encoder.
    private static let writePrefix = Array(
        Peripherals.BeltCommand.setOrientationPeriod(milliseconds: wireMinimumMilliseconds).encoded().prefix(2))

    /// The request of a parameter-0x0F write whose period lies under pybelt's minimum but not under the
    /// floor (`11 0F <persist> <ms u16 LE>`); nil for every other write, left to `BeltRequest.decode`.
    func request(characteristic: String, bytes: [UInt8]) -> BeltRequest? {
        guard characteristic == BeltGATT.Characteristic.parameterRequest, bytes.count == 5,
            bytes.starts(with: Self.writePrefix)
        else { return nil }
        let period = Int(bytes[3]) | Int(bytes[4]) << 8
        guard period < Self.wireMinimumMilliseconds, period >= milliseconds else { return nil }
        return .setOrientationPeriod(milliseconds: UInt16(period), persist: bytes[2] != 0)
    }
}
