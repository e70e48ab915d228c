#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A small file the gateway keeps across restarts and power cuts (its fleet incarnation, the adopted devices):
/// replaced whole, so that a power cut leaves either the old contents or the new ones, never a mixture.
public enum DurableFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The folder `file` is in (created when missing).
    static func folder(of file: String) -> String {
        file.lastIndex(of: "/").map { String(file[..<$0]) }.flatMap { $0.isEmpty ? "/" : $0 } ?? "."
    }

    public static func createFolder(of file: String) throws(Failure) {
        do {
            try FileManager.default.createDirectory(atPath: folder(of: file), withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create the folder of \(file): \(error)")
        }
    }

    /// The file's bytes, at most `limit` of them (one more tells the caller it is too long); nil when it does not exist.
    public static func read(_ file: String, limit: Int) throws(Failure) -> [UInt8]? {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw Failure(description: "cannot read \(file): \(errorText())")
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress! + total, $0.count - total)
            }
            guard count >= 0 else { throw Failure(description: "cannot read \(file): \(errorText())") }
            if count == 0 { break }
            total += count
        }
        return Array(bytes[..<total])
    }

    /// Writes `bytes` to a temporary file, flushes it, renames it over `file` and flushes the folder.
    public static func replace(_ file: String, with bytes: [UInt8]) throws(Failure) {
        let temporary = file + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Failure(description: "cannot write \(temporary): \(errorText())") }
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else {
            throw Failure(description: "cannot write \(temporary): \(errorText())")
        }
        guard rename(temporary, file) == 0 else { throw Failure(description: "cannot replace \(file): \(errorText())") }
        // The rename itself is durable once the folder is.
        let directory = open(folder(of: file), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
