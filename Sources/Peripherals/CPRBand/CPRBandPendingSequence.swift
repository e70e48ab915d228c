/// A `newRange` or `newName` sequence the simulated band is in the middle of: the marker byte has
/// arrived and `remaining` argument bytes are still expected (§A.6, §A.7).
public struct CPRBandPendingSequence: Sendable, Equatable, Hashable {
    /// `newRange` or `newName`.
    public let opcode: CPRBandOpcode
    /// The argument bytes received so far.
    public private(set) var arguments: [UInt8] = []

    /// Starts a sequence after its marker byte.
    public init(opcode: CPRBandOpcode) { self.opcode = opcode }

    /// Argument bytes still expected.
    public var remaining: Int { opcode.argumentCount - arguments.count }

    /// Adds an argument byte; returns true once the sequence is complete.
    mutating func append(_ byte: UInt8) -> Bool {
        arguments.append(byte)
        return remaining <= 0
    }
}
