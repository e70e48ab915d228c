#if canImport(Glibc)
    import Glibc
#endif

/// What to say when the system bus's policy refuses this process BlueZ: who it refused, and what lets it in.
/// The stock `bluetooth.conf` of Debian 12 and 13 lets anyone talk to `org.bluez`, but stricter hosts admit only
/// root and the `bluetooth` group, whose id differs from host to host; a container's user is unknown to the host,
/// so only its numeric ids count.
enum BusPolicyRefusal {
    /// One line for the log: the ids the bus judged, the fix for a host and for a container, and the bus's words.
    static func explanation(busSaid: String) -> String {
        "the system bus's policy for org.bluez (BlueZ's bluetooth.conf in /etc/dbus-1/system.d or /usr/share/dbus-1/system.d)"
            + " refused this process, \(credentials()): run it as root or as a member of the group that policy admits,"
            + " usually `bluetooth` (a container: add the host's group by its id, e.g. `--group-add $(getent group bluetooth"
            + " | cut -d: -f3)` on the host); the bus said: \(busSaid)"
    }

    /// "uid 100, gid 101, groups 101 102": the process's ids as the bus sees them.
    static func credentials() -> String {
        let count = getgroups(0, nil)
        var groups = [gid_t](repeating: 0, count: Int(max(count, 0)))
        let filled = count > 0 ? getgroups(count, &groups) : 0
        let supplementary = groups.prefix(Int(max(filled, 0))).map { String($0) }.joined(separator: " ")
        return "uid \(getuid()), gid \(getgid()), groups \(supplementary.isEmpty ? "none" : supplementary)"
    }
}
