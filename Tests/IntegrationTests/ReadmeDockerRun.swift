import TestSupport
import Testing

/// The README's two `docker run` lines, read word for word and changed only where this machine is not a user's: podman
/// (runc, rlimits under these machines' hard limits, a container name the test removes, the host's network, where the
/// world's broker listens on 127.0.0.1, and the gateway's name, which the test's topics carry) runs them instead of
/// Docker, the world's bus folder stands for the host's `/var/run/dbus`, the test's volume, broker and image for
/// `gatt2mqtt-state`, `mqtt://broker:1883` and `gatt2mqtt`. Every replaced piece must be in the line exactly once, so
/// that a README edited past what the test knows fails here rather than being tried no longer.
enum ReadmeDockerRun {
    /// Which of the two lines.
    enum Line {
        /// "Install": the line after `docker build`, against a host whose policy lets any user talk to BlueZ.
        case plain
        /// "Docker": `--group-add` with the host's `bluetooth` group by its id, for a stricter host. `group` is the group
        /// the test's stricter policy admits: `bluetooth` (the README's) unless this host's id of it is one the image's
        /// user already has.
        case groupAdd(group: String)
    }

    /// Where the container runs: what the README's line names, as the test has it.
    struct Target {
        let container: String
        let gateway: String
        let busFolder: String
        let volume: String
        let broker: String
        let image: String
    }

    /// The README's line as a shell command that `exec`s podman, so that the process a test launches is the container's.
    static func command(_ line: Line, for target: Target) throws -> String {
        var command = try readmeLine(line)
        let podman =
            (["exec", "podman"] + Podman.runtime + ["run", "--name", target.container, "--network", "host"]
            + Podman.limits + ["-e", "GATT2MQTT_GATEWAY=\(target.gateway)"]).joined(separator: " ")
        var replacements = [
            ("docker run ", podman + " "),
            ("-v /var/run/dbus:/var/run/dbus ", "-v \(target.busFolder):/var/run/dbus "),
            ("-v gatt2mqtt-state:/var/lib/gatt2mqtt", "-v \(target.volume):/var/lib/gatt2mqtt"),
            ("GATT2MQTT_BROKER=mqtt://broker:1883 ", "GATT2MQTT_BROKER=\(target.broker) "),
        ]
        if case .groupAdd(let group) = line, group != "bluetooth" {
            replacements.append(("getent group bluetooth ", "getent group \(group) "))
        }
        for (readme, here) in replacements {
            let pieces = command.components(separatedBy: readme)
            try #require(pieces.count == 2, "the README's docker run line names `\(readme)` once: \(command)")
            command = pieces.joined(separator: here)
        }
        try #require(command.hasSuffix(" gatt2mqtt"), "the README's docker run line ends with the image: \(command)")
        return String(command.dropLast("gatt2mqtt".count)) + target.image
    }

    /// The line as the README has it, its continuation lines kept (the shell joins them at their backslashes).
    static func readmeLine(_ line: Line) throws -> String {
        switch line {
        case .plain:
            let block = try ReadmeBlocks.block(under: "Install", startingWith: "docker build ")
            try #require(block.count > 1 && block[1].hasPrefix("docker run "), "the README's Install block: \(block)")
            return block.dropFirst().joined(separator: "\n")
        case .groupAdd:
            return try ReadmeBlocks.block(under: "Docker", startingWith: "docker run --group-add ").joined(
                separator: "\n")
        }
    }
}
