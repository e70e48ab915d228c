#if canImport(Glibc)
    import Glibc
#endif

/// Where standard error goes: the systemd journal, or anything else (a terminal, a file, a pipe).
public enum LogDestination: Sendable, Equatable {
    case journal
    case stream

    /// The journal when systemd connected standard error to it: it then sets `JOURNAL_STREAM` to that
    /// stream's `device:inode` (systemd.exec(5)). A child that inherited the variable but whose standard error
    /// was redirected has another inode, so it is not mistaken for the journal.
    public static func ofStandardError(journalStream: String? = getenv("JOURNAL_STREAM").map { String(cString: $0) })
        -> LogDestination
    {
        guard let stream = journalStream else { return .stream }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return .stream }
        return stream == "\(status.st_dev):\(status.st_ino)" ? .journal : .stream
    }
}
