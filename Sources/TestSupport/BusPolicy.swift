import Foundation

/// Whom a test's private dbus-daemon lets in, and under which rules.
public enum BusPolicy: Sendable {
    /// A session bus: only the test runner's uid.
    case session
    /// The session bus's policy, and clients of any uid.
    case anyUser
    /// A system bus as a Debian host ships it: the `system.conf` and the `system.d` policies of the Debian root at
    /// `root` (as apt installed them, bluez's `bluetooth.conf` among them), with `bluetooth` deciding who may talk to
    /// BlueZ. Only what makes the daemon private changes: its socket, no user switch, no pid file, no syslog, no
    /// service activation, and no file of this machine's own `/etc/dbus-1` included.
    case debianSystem(root: String, bluetooth: BluetoothPolicy)

    /// Who may send to `org.bluez` on a `debianSystem` bus.
    public enum BluetoothPolicy: Sendable {
        /// bluez's `bluetooth.conf` as packaged (Debian 12 and 13: root, and everyone by the default context).
        case packaged
        /// A stricter host's: root and the members of `group` only (the packaged file with its default-context
        /// policy replaced by one for that group).
        case rootAnd(group: String)
    }

    /// The socket's file name: a system bus's own, so that a folder mounted at `/run/dbus` holds it where clients
    /// look without being told.
    var socketName: String {
        if case .debianSystem = self { return "system_bus_socket" }
        return "bus"
    }

    /// The daemon's arguments that choose its configuration, after writing what it needs into `folder`.
    func configurationArguments(folder: String, address: String) throws -> [String] {
        switch self {
        case .session:
            return ["--session"]
        case .anyUser:
            let file = folder + "/bus.conf"
            try Self.anyUserConfiguration().write(toFile: file, atomically: true, encoding: .utf8)
            return ["--config-file=\(file)"]
        case .debianSystem(let root, let bluetooth):
            let file = folder + "/system.conf"
            try Self.systemConfiguration(root: root, bluetooth: bluetooth, folder: folder, address: address).write(
                toFile: file, atomically: true, encoding: .utf8)
            return ["--config-file=\(file)"]
        }
    }

    /// Whether clients of other uids must reach the socket (its folder then opens to all).
    var admitsOtherUsers: Bool {
        if case .session = self { return false }
        return true
    }

    /// The session bus's own configuration (what `--session` loads), and any uid let in.
    private static func anyUserConfiguration() -> String {
        let session =
            ["/usr/share/dbus-1/session.conf", "/etc/dbus-1/session.conf"].first {
                FileManager.default.fileExists(atPath: $0)
            }
            ?? "/usr/share/dbus-1/session.conf"
        return """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <include>\(session)</include>
              <policy context="default"><allow user="*"/></policy>
            </busconfig>

            """
    }

    /// The elements of Debian's `system.conf` that a private daemon leaves out; none of them is a policy.
    static let leftOut = [
        "<user>", "<fork/>", "<standard_system_servicedirs/>", "<servicehelper>", "<pidfile>", "<syslog/>", "<listen>",
        "<includedir>", "<include ignore_missing=\"yes\">/etc/",
    ]

    /// The root's `system.conf` without the lines of `leftOut`, listening at `address`, its `system.d` folders replaced by
    /// one in `folder` holding copies of theirs (bluez's `bluetooth.conf` as `bluetooth` says).
    static func systemConfiguration(root: String, bluetooth: BluetoothPolicy, folder: String, address: String) throws
        -> String
    {
        let files = FileManager.default
        let policies = folder + "/system.d"
        try files.createDirectory(atPath: policies, withIntermediateDirectories: true)
        var foundBluetooth = false
        for source in [root + "/usr/share/dbus-1/system.d", root + "/etc/dbus-1/system.d"] {
            for name in (try? files.contentsOfDirectory(atPath: source)) ?? [] where name.hasSuffix(".conf") {
                var text = try String(contentsOfFile: source + "/" + name, encoding: .utf8)
                if name == "bluetooth.conf" {
                    foundBluetooth = true
                    if case .rootAnd(let group) = bluetooth { text = try restricted(text, toGroup: group) }
                }
                try text.write(toFile: policies + "/" + name, atomically: true, encoding: .utf8)
            }
        }
        guard foundBluetooth else {
            throw PolicyFailure("no bluetooth.conf in \(root)'s D-Bus policies: is bluez in it?")
        }
        let system = try String(contentsOfFile: root + "/usr/share/dbus-1/system.conf", encoding: .utf8)
        var lines = system.components(separatedBy: "\n").filter { line in
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return !leftOut.contains { trimmed.hasPrefix($0) }
        }
        guard let end = lines.lastIndex(where: { $0.hasPrefix("</busconfig>") }) else {
            throw PolicyFailure("\(root)'s system.conf has no </busconfig>")
        }
        // dbus-daemon wants a <listen> in the file even when --address gives it one.
        lines.insert(contentsOf: ["  <listen>\(address)</listen>", "  <includedir>\(policies)</includedir>"], at: end)
        return lines.joined(separator: "\n")
    }

    /// bluez's `bluetooth.conf` with its default-context policy (which lets everyone send to `org.bluez`) replaced
    /// by the same rule for `group` alone.
    static func restricted(_ packaged: String, toGroup group: String) throws -> String {
        let opening = "<policy context=\"default\">"
        guard let start = packaged.range(of: opening),
            let end = packaged.range(of: "</policy>", range: start.upperBound..<packaged.endIndex)
        else { throw PolicyFailure("bluetooth.conf has no default-context policy to restrict") }
        let rule = packaged[start.upperBound..<end.lowerBound]
        guard rule.contains("send_destination=\"org.bluez\"") else {
            throw PolicyFailure("bluetooth.conf's default-context policy is not the one expected: \(rule)")
        }
        return packaged.replacingCharacters(
            in: start.lowerBound..<end.upperBound, with: "<policy group=\"\(group)\">\(rule)</policy>")
    }
}

/// A bus policy that could not be made from the files it is made of.
struct PolicyFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
