import BlueZ
import Foundation
import Locks
import Peripherals

/// `--traffic-log FILE`: one line per notification sent and per write received, with the moment it
/// crossed the bus on the system's monotonic clock, so that another process on the same machine (the
/// benchmark) can match them with what it saw:
///
///     N f0fe 0a00 1234567890123      notification: characteristic, value (hex), nanoseconds
///     W f0fa 0500 1234567890456      write received
///
/// Lines are buffered and written every 100 ms: a benchmark at thousands of values per second must not
/// pay a system call for each.
final class TrafficLog: Sendable {
    private let buffer = Mutex("")
    private let handle: FileHandle

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw TrafficLogError(path: path)
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        Task { [weak self] in
            while let self {
                try? await Task.sleep(for: .milliseconds(100))
                self.flush()
            }
        }
    }

    /// The observer to give `GattApplication`.
    var observer: GattTrafficObserver {
        GattTrafficObserver(
            notificationSent: { [self] uuid, value in record("N", uuid, value) },
            writeReceived: { [self] uuid, value in record("W", uuid, value) })
    }

    private func record(_ kind: String, _ uuid: String, _ value: [UInt8]) {
        let nanoseconds = MonotonicClock.nanoseconds()
        let line = "\(kind) \(BluetoothUUID.shortForm(uuid)) \(value.hex) \(nanoseconds)\n"
        buffer.withLock { $0 += line }
    }

    func flush() {
        let text = buffer.withLock { buffer -> String in
            defer { buffer = "" }
            return buffer
        }
        if !text.isEmpty { handle.write(Data(text.utf8)) }
    }
}

struct TrafficLogError: Error, CustomStringConvertible {
    let path: String
    var description: String { "cannot create the traffic log \(path)" }
}
