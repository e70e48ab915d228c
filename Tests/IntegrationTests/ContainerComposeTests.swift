import Foundation
import TestSupport
import Testing

/// docker/compose.yml, run as the README's "Docker" section says, word for word but for `docker` (podman here, and
/// `docker compose` podman-compose): the broker's users made with the broker image's `mosquitto_passwd` at a
/// terminal, the gateway's password written to `docker/gatt2mqtt.env`, then `up`. The broker lets in only its users
/// with the README's ACL, the gateway logs in with its password and bridges a belt from a BlueZoo world on a bus
/// configured as a Debian 13 host's; `down` stops it cleanly (`offline`), and a second `up` finds the belt's adoption
/// in the compose's state volume.
///
/// Nothing here touches the machine's own broker port or system bus, and no project of the user's: the compose runs in
/// a network and mount namespace of its own (`ComposeHost`), where the world's bus folder is `/run/dbus` and port 1883 is
/// free, under a project name of its own (`-p`). Two images stand in for what cannot be pulled here:
/// `eclipse-mosquitto:2` (`ComposeBrokerImage`: Debian 13's mosquitto laid out as that image is) and the gatt2mqtt image
/// compose would build from docker/Dockerfile, which is the container test's own image (scripts/images's, from the
/// same file), tagged with the name compose gives it.
extension ContainerImageTests {
    /// The compose project's name: its containers, network and volumes begin with it.
    static let composeProject = "g2m-compose-test"

    @Test(.enabled(if: ContainerImage.isNative, "the compose runs this machine's image"))
    func theComposeFileRunsAsTheReadmeSays() async throws {
        let version = try ProjectPaths.version()
        _ = try await builtImage(version: version)
        try await ComposeBrokerImage.make()
        let built = "localhost/\(Self.composeProject)_gatt2mqtt"
        let tagged = try await Podman.podman(["tag", Self.image, built])
        try #require(tagged.exit == .exited(0), "podman tag: \(tagged.output)")
        let steps = try Self.readmeComposeSteps()

        // The user's clone, as far as the compose needs it: the docker folder (the compose file, the broker's files).
        let clone = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-compose-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: clone, withIntermediateDirectories: true)
        let copied = try await Podman.run(["cp", "-a", ProjectPaths.root + "/docker", clone + "/docker"])
        try #require(copied.exit == .exited(0), "cp docker/: \(copied.output)")
        let root = try await InstalledGuest.makeRoot(
            packages: [try InstalledPackages.current().deb], release: .trixie, timeout: .seconds(900))
        try await withCleanUp({
            try? FileManager.default.removeItem(atPath: clone)
            _ = try? await Podman.podman(["rmi", built])
        }) {
            try await PrivateBus.$policy.withValue(.debianSystem(root: root, bluetooth: .packaged)) {
                try await TestWorld.with { world in
                    let host = try await ComposeHost.start(
                        busFolder: try Podman.systemBusFolder(of: world), folder: clone, project: Self.composeProject)
                    try await withCleanUp({ await host.stop() }) {
                        try await self.runTheCompose(steps, on: host, in: world, version: version)
                    }
                }
            }
        }
    }

    private func runTheCompose(
        _ steps: (users: String, password: String, up: String), on host: ComposeHost, in world: TestWorld,
        version: String
    ) async throws {
        // The users, typed at the password prompts as a person would: the gateway's password is the README's own words
        // for it (the next line writes them to gatt2mqtt.env), the admin's another.
        let adminPassword = "admin's own password"
        let gatewayPassword = "the password given to gatt2mqtt"
        try #require(steps.password.contains("'\(gatewayPassword)'"), "the README's env line: \(steps.password)")
        let users = try await host.run(
            [
                ProjectPaths.python, ProjectPaths.root + "/scripts/crosscheck/answer_prompts.py", "[Pp]assword: *$",
                steps.users, gatewayPassword, gatewayPassword, adminPassword, adminPassword,
            ], timeout: .seconds(120))
        #expect(users.exit == .exited(0), "the README's mosquitto_passwd line: \(users.output)")
        let passwords = try String(contentsOfFile: host.folder + "/docker/mosquitto/passwords", encoding: .utf8)
        #expect(
            passwords.split(separator: "\n").map { $0.prefix { $0 != ":" } } == ["gatt2mqtt", "admin"],
            "\(passwords)")
        let env = try await host.run(["sh", "-c", steps.password], timeout: .seconds(10))
        #expect(env.exit == .exited(0), "the README's gatt2mqtt.env line: \(env.output)")
        let mode =
            try FileManager.default.attributesOfItem(atPath: host.folder + "/docker/gatt2mqtt.env")[
                .posixPermissions] as? Int
        #expect(mode == 0o600, "gatt2mqtt.env is the user's alone (umask 077): \(String(mode ?? 0, radix: 8))")

        let belt = try await world.startSimulator(["belt"])
        let (id, address) = (try belt.simulatedID, try belt.simulatedAddress)
        let down = steps.up.replacingOccurrences(of: " up", with: " down")
        // Everything on the compose's broker, read as its admin from inside the compose's network namespace.
        let watcher = try host.watch(user: "admin", password: adminPassword)
        let started = ContinuousClock.now
        var compose = try host.launch(steps.up, name: "compose up")
        try await watcher.waitForLine(containing: "gatt2mqtt/docker/status online", timeout: .seconds(90))
        let publish = try await host.run(
            [
                "mosquitto_pub", "-h", "127.0.0.1", "-p", "1883", "-u", "admin", "-P", adminPassword, "-q", "1",
                "-t", "gatt2mqtt/docker/request/permit_join", "-m", "{}",
            ], timeout: .seconds(20))
        #expect(publish.exit == .exited(0), "mosquitto_pub as admin: \(publish.output)")
        try await watcher.waitForLine(containing: "belt/\(id)/connection connected", timeout: .seconds(60))
        try await watcher.waitForLine(timeout: .seconds(30)) { $0.hasPrefix("belt/\(id)/heading ") }
        #expect(compose.outputText.contains("gatt2mqtt \(version) starting"), "the gateway's log in compose's output")
        // The gateway got in as its user (the broker lets in nobody else), and so takes its privileged requests
        // without the warning an anonymous gateway gives.
        let info = try await watcher.waitForLine(containing: "gatt2mqtt/docker/info ", timeout: .seconds(30))
        #expect(info.contains(#""privileged_requests":true"#), "\(info)")

        print(
            "\(Self.say) compose up: the gateway online and the belt's headings on its broker in \(ContinuousClock.now - started)"
        )

        // `down` stops the gateway as `docker stop` does (SIGTERM): `offline`, and the compose ends.
        let mark = watcher.lineCount
        let stopped = try await host.run(["sh", "-c", down])
        #expect(stopped.exit == .exited(0), "compose down: \(stopped.output)")
        try await watcher.waitForLine(containing: "gatt2mqtt/docker/status offline", after: mark, timeout: .seconds(30))
        _ = try await compose.waitForExit(timeout: .seconds(60))

        // Up again: the belt's adoption is in the state volume, so it connects with no join window.
        let again = watcher.lineCount
        compose = try host.launch(steps.up, name: "compose up again")
        try await watcher.waitForLine(
            containing: "belt/\(id)/connection connected", after: again, timeout: .seconds(90))
        let volume = try await Podman.podman([
            "volume", "inspect", "--format", "{{.Mountpoint}}", "\(Self.composeProject)_gatt2mqtt-state",
        ])
        #expect(volume.exit == .exited(0), "the compose's state volume: \(volume.output)")
        let adopted = try String(contentsOfFile: volume.lines.joined() + "/adopted.json", encoding: .utf8)
        #expect(adopted.contains(#"{"address":"\#(address)","family":"belt"}"#), "adopted.json: \(adopted)")
        print("\(Self.say) compose up again: the belt connected from the state volume's adoption, \(adopted)")
        let stoppedAgain = try await host.run(["sh", "-c", down])
        #expect(stoppedAgain.exit == .exited(0), "compose down: \(stoppedAgain.output)")
        _ = try await compose.waitForExit(timeout: .seconds(60))
        await watcher.terminate()
    }

    /// The README's three lines that start the compose ("Docker"), as podman runs them: `docker compose` is
    /// podman-compose, `docker` podman. The project is named (`-p`): compose names it after the compose file's folder,
    /// `docker`, as it would a user's own compose of this file on this machine (podman-compose 1.0.3 reads no
    /// `COMPOSE_PROJECT_NAME`).
    static func readmeComposeSteps() throws -> (users: String, password: String, up: String) {
        var block = try ReadmeBlocks.block(under: "Docker", startingWith: "docker run --rm -it")
        // The first command goes on over two lines (a backslash at the end of the first, inside its quotes: the
        // container's shell joins them), run as the shell reads them.
        try #require(block.count == 4 && block[0].hasSuffix("\\"), "the README's compose block: \(block)")
        block = [block[0] + "\n" + block[1]] + block[2...]
        let podman = block.map {
            $0.replacingOccurrences(of: "docker compose ", with: "podman-compose -p \(composeProject) ")
                .replacingOccurrences(of: "docker run ", with: "podman run ")
        }
        try #require(podman[2] == "podman-compose -p \(composeProject) -f docker/compose.yml up", "\(podman[2])")
        return (podman[0], podman[1], podman[2])
    }
}
