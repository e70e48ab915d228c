import Foundation

/// One line of a virtual peripheral's `--traffic-log`: a notification it sent (`N`) or a write it
/// received (`W`), with the moment on CLOCK_MONOTONIC.
struct TrafficRecord: Sendable {
    enum Kind: Sendable { case notification, write }
    var kind: Kind
    /// Short UUID, e.g. `f0fe`.
    var characteristic: String
    var value: [UInt8]
    var nanoseconds: UInt64

    /// The value as a little-endian int16: the Activ5 force sequence, or a sample period.
    var int16: Int16? {
        value.count >= 2 ? Int16(bitPattern: UInt16(value[0]) | UInt16(value[1]) << 8) : nil
    }

    /// Every record of a log file, in order; lines that do not parse are skipped (a log is read while
    /// its writer may be half-way through a line).
    static func read(path: String) -> [TrafficRecord] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap(parse)
    }

    static func parse(_ line: Substring) -> TrafficRecord? {
        let fields = line.split(separator: " ")
        guard fields.count == 4, let nanoseconds = UInt64(fields[3]) else { return nil }
        let kind: Kind
        switch fields[0] {
        case "N": kind = .notification
        case "W": kind = .write
        default: return nil
        }
        let hex = Array(fields[2].utf8)
        guard hex.count % 2 == 0 else { return nil }
        var value: [UInt8] = []
        for index in stride(from: 0, to: hex.count, by: 2) {
            guard let byte = UInt8(String(decoding: hex[index..<index + 2], as: UTF8.self), radix: 16) else {
                return nil
            }
            value.append(byte)
        }
        return TrafficRecord(kind: kind, characteristic: String(fields[1]), value: value, nanoseconds: nanoseconds)
    }
}
