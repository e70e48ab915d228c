#if canImport(Glibc)
    import Glibc
#endif

/// A line the daemon writes on its way out, before or without its logger (a configuration error, a command
/// line it cannot read): at error priority for the journal, which files a bare line at info, so that
/// `journalctl -p err` shows why the daemon stopped.
public enum LastWords {
    /// `line` on standard error, escaped (`LogEscaping`) so that it stays one line, with `<3>` before it when that
    /// is the journal.
    public static func write(_ line: String, destination: LogDestination = .ofStandardError()) {
        let prefix = destination == .journal ? "<\(JournalPriority.of(.error))>" : ""
        let bytes = Array("\(prefix)\(LogEscaping.escaped(line))\n".utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
