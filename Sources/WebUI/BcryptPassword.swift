import Bridge
import HummingbirdBcrypt
import Locks
import NIOPosix

/// The page's password kept as a bcrypt hash (`http.password_hash_file`), so that the file on disk does not
/// give the password away.
///
/// bcrypt is slow on purpose (about a quarter of a second at cost 12), so a check runs on NIO's blocking pool,
/// never on an event loop or the cooperative pool, and at most `concurrentChecks` run at once: without that
/// bound, wrong passwords from many sources would be a cheap way to keep every core busy. A request that finds
/// every slot taken is told to come back (`busy`) rather than queued. The password last accepted is remembered
/// in memory, so a browser, which sends it with every request, pays for bcrypt once.
public final class BcryptPassword: Sendable {
    /// The hash as CBcrypt reads it: `$2y$` (htpasswd's, PHP's) is `$2b$` under another name.
    let hash: String
    private let lastAccepted = Mutex<String?>(nil)
    private let slots: InFlightLimit

    enum Outcome: Equatable, Sendable { case match, mismatch, busy }

    /// How many checks may run at once.
    static let concurrentChecks = 2
    /// The costs accepted: below 4 bcrypt is not defined; above 15 one check takes seconds and ties up a thread.
    public static let costs = 4...15

    /// Nil unless `text` is a bcrypt hash (`isHash`).
    init?(_ text: String, concurrentChecks: Int = BcryptPassword.concurrentChecks) {
        guard Self.isHash(text) else { return nil }
        hash = text.hasPrefix("$2y$") ? "$2b$" + text.dropFirst(4) : text
        slots = InFlightLimit(concurrentChecks)
    }

    /// Whether `text` is a bcrypt hash: `$2a$`, `$2b$` or `$2y$`, a two-digit cost in `costs`, `$`, and 53
    /// characters of salt and hash.
    public static func isHash(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 60, text.hasPrefix("$2a$") || text.hasPrefix("$2b$") || text.hasPrefix("$2y$"),
            bytes[6] == UInt8(ascii: "$"),
            let cost = Int(String(decoding: bytes[4..<6], as: UTF8.self))
        else { return false }
        return costs.contains(cost) && bytes[7...].allSatisfy { alphabet.contains($0) }
    }

    /// bcrypt's base64 alphabet.
    private static let alphabet = Set("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    /// Whether `password` is the one hashed. The outcome takes as long whatever the password's likeness: bcrypt
    /// runs in full for every guess, and the comparison after it (CBcrypt's, of two bcrypt outputs) could leak only
    /// how much of an output it cannot compute without the secret salt.
    func verify(_ password: String) async -> Outcome {
        if let accepted = lastAccepted.withLock({ $0 }), ConstantTime.equal(accepted, password) { return .match }
        guard slots.take() else { return .busy }
        defer { slots.give() }
        let hash = hash
        guard let matches = try? await NIOThreadPool.singleton.runIfActive({ Bcrypt.verify(password, hash: hash) })
        else { return .busy }
        guard matches else { return .mismatch }
        lastAccepted.withLock { $0 = password }
        return .match
    }
}
