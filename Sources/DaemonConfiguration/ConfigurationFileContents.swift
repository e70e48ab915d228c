#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file the configuration names (the file itself, a password or secret file, a certificate, a grip
/// profile), bounded: a path to `/dev/zero`, a pipe nobody writes or a log file given by mistake must not
/// hang the start or fill the memory. Only regular files up to `limit` bytes are read, and every failure says
/// what the system said (no such file, permission denied, not a directory, …).
enum ConfigurationFileContents {
    /// Far more than any of those files holds (a configuration file is a few KiB, a certificate chain tens).
    static let limit = 1 << 20

    /// The bytes of `path`, or why they cannot be had, as words for "cannot read <path>: …".
    static func read(_ path: String, limit: Int = limit) -> Result<Data, Failure> {
        // Non-blocking, so that opening a FIFO with no writer returns at once; a regular file ignores it.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard descriptor >= 0 else { return .failure(Failure(errno: errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(Failure(errno: errno)) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(Failure(reason: "it is a directory"))
        default: return .failure(Failure(reason: "it is not a regular file (a device, a pipe or a socket)"))
        }
        guard status.st_size <= limit else {
            return .failure(
                Failure(reason: "it holds \(status.st_size) bytes, more than the \(limit) a configuration file may"))
        }
        var bytes = [UInt8](repeating: 0, count: limit + 1)
        var count = 0
        // Up to one byte past the limit: a file that grew since `fstat` is refused too, never read whole.
        while count <= limit {
            let read = bytes.withUnsafeMutableBytes {
                Glibc.read(descriptor, $0.baseAddress! + count, limit + 1 - count)
            }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { return .failure(Failure(errno: errno)) }
            if read == 0 { break }
            count += read
        }
        guard count <= limit else {
            return .failure(Failure(reason: "it holds more than the \(limit) bytes a configuration file may"))
        }
        return .success(Data(bytes[..<count]))
    }

    struct Failure: Error, Equatable {
        /// Lower case, as the rest of the message: "no such file", "permission denied".
        var reason: String

        init(reason: String) { self.reason = reason }

        init(errno code: Int32) {
            switch code {
            case ENOENT: reason = "no such file"
            case EACCES, EPERM: reason = "permission denied"
            case EISDIR: reason = "it is a directory"
            default: reason = String(cString: strerror(code)).lowercased()
            }
        }
    }
}
