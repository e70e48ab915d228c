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
}
