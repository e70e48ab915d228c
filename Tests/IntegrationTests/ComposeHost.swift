import Foundation
import TestSupport
import Testing

/// Where a compose test runs its commands: a network and mount namespace of its own (held by a process that waits in
/// it until `stop`), in which the world's system bus folder is `/run/dbus` and loopback is its own, so that the
/// compose's `/var/run/dbus` volume is the world's bus and its published port 1883 is nobody else's. podman runs there
/// with runc and this machine's limits (`Podman.runtime`, `Podman.limits`, as a containers.conf), from `folder` (the
/// user's clone). `project` is the name the test's compose commands give with `-p`. Needs root, unshare and nsenter.
final class ComposeHost: Sendable {
    let folder: String
    let project: String
    private let holder: ManagedProcess
    private let configuration: String

    private init(folder: String, project: String, holder: ManagedProcess, configuration: String) {
        self.folder = folder
        self.project = project
        self.holder = holder
        self.configuration = configuration
    }

    static func start(busFolder: String, folder: String, project: String) async throws -> ComposeHost {
        // What `Podman.runtime` and `Podman.limits` give podman on its command line, for podman-compose's podman.
        let configuration = folder + "/containers.conf"
        let ulimits = stride(from: 1, to: Podman.limits.count, by: 2).map { "\"\(Podman.limits[$0])\"" }
        try """
        [containers]
        default_ulimits = [\(ulimits.joined(separator: ", "))]
        [engine]
        runtime = "\(Podman.runtime[1])"

        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        let holder = try ManagedProcess.launch(
            "unshare",
            arguments: [
                "--net", "--mount", "--propagation", "private", "--", "sh", "-c",
                #"ip link set lo up && mount --bind "$0" /run/dbus && echo compose-host-ready && exec sleep infinity"#,
                busFolder,
            ], name: "compose host")
        try await holder.waitForLine(containing: "compose-host-ready", timeout: .seconds(10))
        let host = ComposeHost(folder: folder, project: project, holder: holder, configuration: configuration)
        // A project of this name left by a killed run.
        await host.removeProject()
        return host
    }

    /// `command` in the namespace, from `folder`, with the compose's environment.
    func launch(_ command: [String], name: String? = nil) throws -> ManagedProcess {
        try ManagedProcess.launch(
            "nsenter",
            arguments: ["--target", "\(holder.processIdentifier)", "--net", "--mount", "--wd=\(folder)", "--"]
                + command,
            environment: ["CONTAINERS_CONF": configuration],
            name: name ?? URL(fileURLWithPath: command[0]).lastPathComponent)
    }

    /// A shell command line in the namespace, as a user types it.
    func launch(_ line: String, name: String) throws -> ManagedProcess {
        try launch(["sh", "-c", line], name: name)
    }

    func run(_ command: [String], timeout: Duration = .seconds(120)) async throws -> CommandResult {
        try await Podman.finish(launch(command), timeout: timeout)
    }

    /// Everything on the compose's broker (`topic payload` lines), read as `user` from inside the namespace by
    /// mosquitto_sub, a client nobody here wrote. It connects again whenever the broker is away (before `up`, after
    /// `down`), as a client of a compose's broker would.
    func watch(user: String, password: String) throws -> ManagedProcess {
        try launch(
            [
                "sh", "-c",
                #"while :; do mosquitto_sub -h 127.0.0.1 -p 1883 -u "$0" -P "$1" -t '#' -v -q 1 2>/dev/null; sleep 0.2; done"#,
                user, password,
            ], name: "mosquitto_sub")
    }

    /// The project's containers, network and volumes gone, then the namespace.
    func stop() async {
        await removeProject()
        await holder.terminate()
    }

    private func removeProject() async {
        let containers = try? await run([
            "podman", "ps", "-aq", "--filter", "label=io.podman.compose.project=\(project)",
        ])
        for container in containers?.lines ?? [] where !container.isEmpty {
            _ = try? await run(["podman", "rm", "--force", "--volumes", "--time", "5", container])
        }
        // podman-compose 1.0.3 names a project's volumes after it and labels them not.
        let volumes = try? await run(["podman", "volume", "ls", "--format", "{{.Name}}"])
        for volume in volumes?.lines ?? [] where volume.hasPrefix(project + "_") {
            _ = try? await run(["podman", "volume", "rm", "--force", volume])
        }
        _ = try? await run(["podman", "network", "rm", "--force", "\(project)_default"])
    }
}

/// `eclipse-mosquitto:2` for the compose test, which cannot pull it here: Debian 13's mosquitto laid out as that image
/// is (its configuration in /mosquitto/config, persistence in /mosquitto/data, but no VOLUME:
/// compose's `down` would leave such a container's anonymous volumes behind, two a run; the broker's user
/// `mosquitto` with the image's uid and gid 1883, which the README's `chown mosquitto:` names; `mosquitto_passwd` and
/// `sh` at hand; the broker started from /mosquitto/config/mosquitto.conf), on the container test's
/// `debian:trixie-slim`. Kept in podman's store while this file and the base stay the same.
enum ComposeBrokerImage {
    static let name = "docker.io/library/eclipse-mosquitto:2"
    static let containerfile = """
        FROM debian:trixie-slim
        # No service starts while a package is installed (as Debian's own images have it).
        RUN printf '#!/bin/sh\\nexit 101\\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d \\
            && groupadd --system --gid 1883 mosquitto \\
            && useradd --system --uid 1883 --gid 1883 --home-dir /var/empty --shell /usr/sbin/nologin mosquitto \\
            && apt-get update && apt-get install -y --no-install-recommends mosquitto \\
            && rm -rf /var/lib/apt/lists/* \\
            && mkdir -p /mosquitto/config /mosquitto/data /mosquitto/log \\
            && chown -R mosquitto:mosquitto /mosquitto
        EXPOSE 1883
        CMD ["/usr/sbin/mosquitto", "-c", "/mosquitto/config/mosquitto.conf"]

        """

    static func make() async throws {
        let context = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-mosquitto-image-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: context, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: context) }
        try containerfile.write(toFile: context + "/Containerfile", atomically: true, encoding: .utf8)
        _ = try await Podman.build(
            image: name, architecture: ContainerImage.nativeArchitecture, context: context,
            arguments: ["-f", context + "/Containerfile"], dependencies: nil)
    }
}
