/// The result a control point of the SIG's sports profiles indicates after its response code and the request's op code:
/// the same four in the SC Control Point (CSCS 3.4), the Cycling Power Control Point (CPS 3.5) and the Fitness
/// Machine Control Point (FTMS 4.16), which adds a fifth.
public enum ControlPointResult: UInt8, Sendable {
    case success = 0x01
    case opCodeNotSupported = 0x02
    case invalidParameter = 0x03
    case operationFailed = 0x04
    /// FTMS only: a request before the client took control.
    case controlNotPermitted = 0x05
}
