#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
import Peripherals

/// The gateway's incarnation: read from its file, one more than the last start's, written back before
/// the gateway claims anything.
enum Incarnation {
    static func next(file: String) throws(CommandError) -> UInt64 {
        let previous = (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { UInt64($0.trimming()) } ?? 0
        let next = previous + 1
        do {
            let folder = file.lastIndex(of: "/").map { String(file[..<$0]) } ?? ""
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try "\(next)\n".write(toFile: file, atomically: true, encoding: .utf8)
        } catch {
            throw CommandError(.invalidValue, "cannot keep the fleet incarnation in \(file): \(error)")
        }
        return next
    }
}
