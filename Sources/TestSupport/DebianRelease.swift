/// The Debian releases the installed tier boots (scripts/installed/root --release): the package must install
/// and run on each as a user's apt resolves it there. Both boot the same Debian 13 kernel (the real-BlueZ
/// guest's): what differs is everything the package meets in user space (systemd, dbus and its policy,
/// bluez, glibc, libmosquitto).
public enum DebianRelease: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Debian 12.
    case bookworm
    /// Debian 13, the current stable.
    case trixie

    public var description: String { rawValue }
}
