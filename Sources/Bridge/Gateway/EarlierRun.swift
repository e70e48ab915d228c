#if canImport(Glibc)
    import Glibc
#endif

/// Whether this gateway ran here before the start under way, by its own state rather than by the broker's word:
/// its fleet incarnation file (`fleet.incarnation_file`, in the state directory by default) is there. Every start
/// with a fleet (on by default since 0.9.0) leaves one, and 0.9.0, which had no adoption, left nothing else; so it
/// tells the first start after an upgrade, when the devices an earlier run served are adopted, from a fresh install,
/// where a retained `info` naming the gateway can only be someone else's doing. Read before the incarnation of this
/// start is written.
enum EarlierRun {
    static func isKnown(_ configuration: BridgeConfiguration) -> Bool {
        guard let file = configuration.fleet?.incarnationFile else { return false }
        var status = stat()
        return stat(file, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }
}
