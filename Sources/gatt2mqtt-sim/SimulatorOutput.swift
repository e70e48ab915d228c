import Foundation
import Locks

/// The test interface on standard output: whole lines, flushed one by one (unbuffered writes), never
/// interleaved.
final class SimulatorOutput: Sendable {
    private let lock = Mutex(())

    /// Writes one line.
    func line(_ text: String) {
        lock.withLock { _ in FileHandle.standardOutput.write(Data((text + "\n").utf8)) }
    }
}

extension Array where Element == UInt8 {
    /// Lower-case hex without separators, e.g. `01810300`.
    var hex: String { map { String(format: "%02x", $0) }.joined() }

    /// The bytes a console line spells as pairs of hex digits, e.g. `0a1b`; nil for no digits, an odd count or a
    /// character that is not a hex digit.
    init?(hex: String) {
        let digits = [Character](hex)
        guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { return nil }
            bytes.append(byte)
        }
        self = bytes
    }
}
