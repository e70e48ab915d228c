import Fleet
import Peripherals

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The gateway's incarnation: read from its file, one more than the last start's, made durable before the
/// gateway claims anything. The other gateways order its claims by it, so it must never go backwards:
/// - a file that is not there is the first start, which begins at the clock's seconds (at least 1): a gateway
///   that ran on the clock before it had a file (see `forGateway`) does not go back when it gets one; a file
///   that is there but unreadable, empty or not a number is refused with what is wrong, rather than read as 0;
/// - the new value replaces the old one durably (`DurableFile`): a power cut leaves either the old number or the new one;
/// - it stops below 2^53 − 1, the largest a claim carries (`ClaimCodec.maximumCounter`);
/// - the file stays locked while the gateway runs: a second gateway given the same file (two on one host with
///   the default) refuses to start instead of sharing a counter.
enum Incarnation {
    struct Failure: Error, CustomStringConvertible {
        let description: String
        /// The file holds something that is not a usable incarnation (as opposed to: it cannot be opened).
        var damaged = false
    }

    /// The incarnation of a gateway with `options`. One that joins a fleet only when others are online and was
    /// given no file of its own may lack the default one (run by a user without /var/lib/gatt2mqtt, or a second
    /// gateway on the host): the clock's seconds stand in then, which do not go backwards while the clock does
    /// not, and the gateway says so. A damaged file is refused whatever the mode: it would be read as going back.
    static func forGateway(_ options: FleetOptions, note: (String) -> Void) throws -> UInt64 {
        do {
            return try next(file: options.incarnationFile)
        } catch let failure as Failure
            where !failure.damaged && options.joining == .whenOthersOnline && !options.incarnationFileChosen
        {
            let seconds = clockSeconds()
            note(
                "fleet: \(failure.description); the clock (\(seconds)) stands in for the incarnation. Set fleet.incarnation_file before this gateway shares a broker with others"
            )
            return seconds
        }
    }

    /// Locks `file`, reads it, writes and returns the next incarnation. The lock is held until the process ends.
    static func next(file: String) throws -> UInt64 {
        do throws(DurableFile.Failure) {
            try DurableFile.createFolder(of: file)
        } catch {
            throw Failure(description: error.description)
        }
        // Neither followed (a link would make the gateway create its target) nor waited on (a FIFO).
        let lock = open(file + ".lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0o600)
        guard lock >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link" : DurableFile.errorText()
            throw Failure(description: "cannot open \(file).lock: \(reason)")
        }
        var status = stat()
        if fstat(lock, &status) != 0 { status.st_mode = 0 }
        if let kind = DurableFile.kind(status.st_mode) {
            close(lock)
            throw Failure(description: "cannot open \(file).lock: it is \(kind), not a regular file")
        }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw Failure(
                description: "\(file) is in use by another gatt2mqtt: give each gateway its own fleet.incarnation_file")
        }
        // The descriptor is kept open on purpose: the lock lasts as long as the process.
        let last = try read(file)
        let next = last == 0 ? clockSeconds() : last + 1
        do throws(DurableFile.Failure) {
            try DurableFile.replace(file, with: Array("\(next)\n".utf8))
        } catch {
            throw Failure(description: error.description)
        }
        return next
    }

    /// The last incarnation: 0 when the file does not exist.
    static func read(_ file: String) throws -> UInt64 {
        let bytes: [UInt8]?
        do throws(DurableFile.Failure) {
            bytes = try DurableFile.read(file, limit: 31)
        } catch {
            throw Failure(description: error.description)
        }
        guard let bytes else { return 0 }
        let text = String(decoding: bytes, as: UTF8.self).trimming()
        guard bytes.count < 32, let value = UInt64(text) else {
            throw Failure(
                description:
                    "\(file) holds no incarnation number ('\(text.prefix(20))'): restore it, or remove it to start again at 1",
                damaged: true)
        }
        guard value < ClaimCodec.maximumCounter else {
            throw Failure(
                description:
                    "\(file) holds \(value), the largest incarnation a claim carries: remove it to start again at 1",
                damaged: true)
        }
        return value
    }

    /// The clock's whole seconds since 1970, at least 1 (a box without a real-time clock may start near 0).
    static func clockSeconds() -> UInt64 { UInt64(max(1, Date().timeIntervalSince1970)) }
}
