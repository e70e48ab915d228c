#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// A small file the gateway keeps across restarts and power cuts (its fleet incarnation, the adopted devices, the
/// options): replaced whole, so that a power cut leaves either the old contents or the new ones, never a mixture.
///
/// Handled as a database handles its files, because whoever else can write the folder must not be able to turn
/// the gateway's writes elsewhere or stop its start:
/// - a write goes to a temporary file of a new, unpredictable name, created there and then (`O_EXCL`, `O_NOFOLLOW`):
///   a link planted at any name beside the file is never followed, and two writers never share a temporary;
/// - the rename replaces the name itself: a link in the file's place is replaced by a regular file, its target
///   left alone;
/// - a read takes regular files only and never waits: a FIFO, a folder, a socket, a device or a symbolic link in
///   the file's place is refused with what it is (`Failure.notAFile`), without being opened where opening could
///   block or follow it.
public enum DurableFile {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        /// The path is there, but is no regular file; it was not read.
        public var notAFile = false
        /// What is wrong without the file's name, for a message that names it already.
        public var reason: String

        init(description: String, notAFile: Bool = false, reason: String? = nil) {
            self.description = description
            self.notAFile = notAFile
            self.reason = reason ?? description
        }
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
        // Looked at before it is opened: opening a device can have effects, and a link is reported as one.
        var status = stat()
        if lstat(file, &status) != 0 {
            if errno == ENOENT { return nil }
            throw Failure(description: "cannot read \(file): \(errorText())")
        }
        if let kind = kind(status.st_mode) { throw notAFile(file, kind) }
        // Whatever replaced it since is still not followed, nor waited on (a FIFO with no writer).
        let descriptor = open(file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP { throw notAFile(file, "a symbolic link") }
            throw Failure(description: "cannot read \(file): \(errorText())")
        }
        defer { close(descriptor) }
        guard fstat(descriptor, &status) == 0 else { throw Failure(description: "cannot read \(file): \(errorText())") }
        if let kind = kind(status.st_mode) { throw notAFile(file, kind) }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var total = 0
        while total < bytes.count {
            let count = bytes.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress! + total, $0.count - total)
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw Failure(description: "cannot read \(file): \(errorText())") }
            if count == 0 { break }
            total += count
        }
        return Array(bytes[..<total])
    }

    /// Writes `bytes` to a new temporary file beside `file`, flushes it, renames it over `file` and flushes the
    /// folder. The file keeps its permissions; a new one is the owner's alone (0600).
    public static func replace(_ file: String, with bytes: [UInt8]) throws(Failure) {
        var status = stat()
        let mode: mode_t =
            lstat(file, &status) == 0 && status.st_mode & S_IFMT == S_IFREG ? status.st_mode & 0o777 : 0o600
        let (temporary, descriptor) = try createTemporary(beside: file)
        var failure: String?
        // The umask would narrow the mode given to open; the file's own is set as it was.
        if fchmod(descriptor, mode) != 0 { failure = errorText() }
        var written = 0
        while failure == nil, written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { failure = errorText() } else { written += count }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errorText() }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw Failure(description: "cannot write \(temporary): \(failure)")
        }
        guard rename(temporary, file) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw Failure(description: "cannot replace \(file): \(reason)")
        }
        // The rename itself is durable once the folder is.
        syncFolder(of: file)
    }

    /// Renames `file` (whatever it is: a link or a FIFO is renamed, not followed) to `<file>.damaged-<UTC time>`,
    /// beside it, so that a person can still read what it held and the name is free for a sound copy. Returns the new
    /// name.
    public static func setAside(_ file: String, at time: Date = Date()) throws(Failure) -> String {
        let stamp = time.formatted(
            Date.ISO8601FormatStyle(dateSeparator: .omitted, dateTimeSeparator: .standard, timeSeparator: .omitted))
        var aside = "\(file).damaged-\(stamp)"
        var number = 2
        var status = stat()
        while lstat(aside, &status) == 0 {
            aside = "\(file).damaged-\(stamp)-\(number)"
            number += 1
        }
        guard rename(file, aside) == 0 else {
            throw Failure(description: "cannot rename \(file) to \(aside): \(errorText())")
        }
        syncFolder(of: file)
        return aside
    }

    /// Removes from `folder` the temporaries that writes cut short left behind (a crash or power cut between the
    /// temporary's creation and its rename): regular files named `<anything>.new-<16 hex digits>` (links and the
    /// like are left alone) and last changed over `minimumAge` ago, so that a write in progress in another process
    /// keeps its temporary. Returns the names removed; the gateway calls it once at start, on its state folder.
    public static func removeLeftTemporaries(
        in folder: String, olderThan minimumAge: Duration = .seconds(60), now: Date = Date()
    ) -> [String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return [] }
        let cutoff = now.timeIntervalSince1970 - Double(minimumAge.components.seconds)
        return names.sorted().filter { name in
            guard isTemporaryName(name) else { return false }
            let path = "\(folder)/\(name)"
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                Double(status.st_mtim.tv_sec) < cutoff
            else { return false }
            return unlink(path) == 0
        }
    }

    /// Whether `name` is one `createTemporary` makes: `.new-` and 16 lowercase hex digits at its end.
    static func isTemporaryName(_ name: String) -> Bool {
        let suffix = name.suffix(16)
        let stem = name.dropLast(16)
        return suffix.count == 16 && stem.hasSuffix(".new-") && stem.count > 5
            && suffix.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// `<file>.new-<16 hex digits>`, created by this call alone (`O_EXCL`: not there before, and not a link).
    private static func createTemporary(beside file: String) throws(Failure) -> (String, Int32) {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let suffix = String(generator.next() as UInt64, radix: 16)
            let temporary = "\(file).new-\(String(repeating: "0", count: 16 - suffix.count))\(suffix)"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor >= 0 { return (temporary, descriptor) }
            if errno != EEXIST { throw Failure(description: "cannot write \(temporary): \(errorText())") }
        }
        throw Failure(description: "cannot write beside \(file): every temporary name tried was taken")
    }

    private static func syncFolder(of file: String) {
        let directory = open(folder(of: file), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
    }

    /// What a path of `mode` is when it is not a regular file, as a log line says it; nil for a regular file.
    static func kind(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: nil
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "no regular file"
        }
    }

    private static func notAFile(_ file: String, _ kind: String) -> Failure {
        Failure(
            description: "\(file) is \(kind), not a regular file: not read", notAFile: true,
            reason: "it is \(kind), not a regular file")
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
