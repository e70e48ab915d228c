import Foundation
import TestSupport
import Testing

/// Whether the container image is tested: in the installed tier, where podman is.
enum ContainerImage {
    static var enabled: Bool {
        InstalledPackages.enabled && (try? ExecutableLocator.find("podman")) != nil
    }
}

/// The container image as docker/Dockerfile makes it, built and run with podman (runc) on this machine, with
/// no container registry: the runtime stage (from its second `FROM` to the end) is taken from the Dockerfile at
/// test time and built as written, but for its mount of the package stage's output, which takes the .deb from
/// a build context instead (the package stage needs the Swift toolchain's image, which cannot be pulled here; it runs
/// the same `scripts/package` that made the .deb). Its `FROM debian:trixie-slim` resolves to Debian 13's
/// minbase root made by mmdebstrap and slimmed as Debian's slim images are (scripts/container-base), standing in
/// for the real slim image, which cannot be pulled here either. The container then runs the bridge as the image's own user against a BlueZoo world
/// whose bus admits that user, over the host's network (the world's broker listens on 127.0.0.1).
///
/// Needs root, podman and runc, Debian's mirror (apt inside the build and mmdebstrap) and the package
/// (`scripts/package`): `GATT2MQTT_PACKAGES`, else `.build/package`. Part of the installed tier.
@Suite(.serialized, .enabled(if: ContainerImage.enabled, "needs GATT2MQTT_WORLDS=installed and podman"))
struct ContainerImageTests {
    /// The image's tag, reused by every run (and removed at the end of each).
    static let image = "localhost/gatt2mqtt-test:container"
    /// The container's name (a leftover of a killed run is removed first).
    static let container = "gatt2mqtt-container-test"
    /// Where the world's bus folder appears inside the container.
    static let busFolder = "/run/gatt2mqtt-test-bus"
    /// What podman needs on this machine: runc (crun refuses cgroups in hybrid mode) and rlimits no higher
    /// than the runner's own hard ones (raising them, as podman's defaults would, is not permitted here).
    static let runtime = ["--runtime", "runc"]
    static let limits = ["--ulimit", "nofile=1000:1000", "--ulimit", "nproc=1000:1000"]

    /// The mount of the runtime stage that takes the package stage's output, replaced by one of the context's folder.
    static let packageMount = "RUN --mount=type=bind,from=package,source=/out,target=/tmp/package \\"
    static let contextMount = "RUN --mount=type=bind,source=package,target=/tmp/package \\"

    @Test func theImageRunsTheBridgeAsItsUnprivilegedUser() async throws {
        let version = try ProjectPaths.version()
        let deb = try InstalledPackages.current().deb
        let containerfile = try runtimeStage()

        // The base: Debian's minbase by mmdebstrap, its tar cached in .build/container.
        let baseStarted = ContinuousClock.now
        let base = try await run([ProjectPaths.root + "/scripts/container-base"], timeout: .seconds(900))
        try #require(base.exit == .exited(0), "scripts/container-base failed:\n\(base.output)")
        print("container image: base \(base.lines.last ?? "?") ready in \(ContinuousClock.now - baseStarted)")

        let context = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-container-\(UUID().uuidString.prefix(8))"
        ).path
        await removeContainer()
        _ = try? await podman(["rmi", "--ignore", Self.image])
        do {
            try makeContext(context, containerfile: containerfile, deb: deb)
            try await buildAndRun(context: context, version: version)
        } catch {
            await cleanUp(context)
            throw error
        }
        await cleanUp(context)
    }

    private func buildAndRun(context: String, version: String) async throws {
        let buildStarted = ContinuousClock.now
        let build = try await podman(
            ["build"] + Self.runtime + Self.limits + [
                "--network", "host", "--pull=never", "--no-cache", "--force-rm",
                // Docker's image format: OCI's has no HEALTHCHECK, which podman would drop with a warning.
                "--format", "docker",
                "-f", context + "/Containerfile", "-t", Self.image, context,
            ], timeout: .seconds(900))
        try #require(build.exit == .exited(0), "podman build failed:\n\(build.output)")
        let buildTime = ContinuousClock.now - buildStarted
        let size = try await inspect(image: "{{.Size}}")
        let megabytes = (Double(size) ?? 0) / 1_000_000
        print(
            "container image: built \(Self.image) in \(buildTime), \(String(format: "%.1f", megabytes)) MB (\(size) bytes)"
        )
        // Small: the package and what it needs, on the slim base (issue #57: at most 120 MB).
        #expect(megabytes <= 120, "the image is \(megabytes) MB")
        try await printLargestPackages()

        // The image as the Dockerfile declares it.
        #expect(try await inspect(image: "{{.Config.User}}") == "gatt2mqtt")
        #expect(try await inspect(image: "{{json .Config.Volumes}}").contains("\"/var/lib/gatt2mqtt\""))
        #expect(try await inspect(image: "{{json .Config.Healthcheck}}").contains("/tmp/gatt2mqtt-alive"))

        let runStarted = ContinuousClock.now
        try await PrivateBus.$admitsAnyUser.withValue(true) {
            try await TestWorld.with { world in try await runContainer(in: world, version: version) }
        }
        print("container image: the world and the container, run and stopped, in \(ContinuousClock.now - runStarted)")
    }

    private func runContainer(in world: TestWorld, version: String) async throws {
        let belt = try await world.startSimulator(["belt"])
        let id = try belt.simulatedID
        let recorder = try await TopicRecorder(world: world)
        let busSocket = try #require(
            world.busAddress.hasPrefix("unix:path=") ? String(world.busAddress.dropFirst("unix:path=".count)) : nil,
            "the world's bus is a unix socket")
        let busFolder = URL(fileURLWithPath: busSocket).deletingLastPathComponent().path
        let socketName = URL(fileURLWithPath: busSocket).lastPathComponent
        do {
            // Attached, so that the container's log arrives as lines here; it ends with the container.
            let container = try ManagedProcess.launch(
                "podman",
                arguments: Self.runtime + ["run", "--name", Self.container, "--network", "host"] + Self.limits + [
                    "-v", "\(busFolder):\(Self.busFolder)",
                    "-e", "DBUS_SYSTEM_BUS_ADDRESS=unix:path=\(Self.busFolder)/\(socketName)",
                    "-e", "GATT2MQTT_BROKER=\(world.broker.url)", "-e", "GATT2MQTT_GATEWAY=container",
                    Self.image,
                ], name: "container")
            try await container.waitForLine(containing: "gatt2mqtt \(version) starting", timeout: .seconds(60))
            try await recorder.waitFor("gatt2mqtt/container/status") { $0.payloadString == "online" }
            // The belt is a stranger until a join window adopts it.
            try recorder.publish("gatt2mqtt/container/request/permit_join", "{}")
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/\(id)/heading")

            // The HEALTHCHECK passes once the daemon has touched its file (it says so after the first touch).
            try await container.waitForLine(
                containing: "health file /tmp/gatt2mqtt-alive: touched every", timeout: .seconds(60))
            let health = try await podman(["healthcheck", "run", Self.container])
            #expect(health.exit == .exited(0), "podman healthcheck run: \(health.output)")

            // The container as it runs: the image's user, the state folder on a volume.
            #expect(try await inspect(container: "{{.Config.User}}") == "gatt2mqtt")
            let mounts = try await inspect(container: "{{range .Mounts}}{{.Type}} {{.Destination}};{{end}}")
            #expect(mounts.split(separator: ";").contains("volume /var/lib/gatt2mqtt"), "mounts: \(mounts)")
            let user = try await podman(["exec", Self.container, "id", "-un"])
            #expect(user.lines == ["gatt2mqtt"], "id -un in the container: \(user.output)")
            let reported = try await podman(["exec", Self.container, "gatt2mqtt", "--version"])
            #expect(
                reported.exit == .exited(0) && reported.lines == [version], "gatt2mqtt --version: \(reported.output)")

            // Stopping the container (SIGTERM to the daemon, its PID 1) ends the bridge cleanly.
            let mark = recorder.mark
            let stop = try await podman(["stop", Self.container], timeout: .seconds(60))
            #expect(stop.exit == .exited(0), "podman stop: \(stop.output)")
            try await recorder.waitFor("gatt2mqtt/container/status", after: mark) { $0.payloadString == "offline" }
            #expect(
                try await container.waitForExit(timeout: .seconds(30)) == .exited(0),
                "podman run: \(container.outputText)")
            #expect(try await inspect(container: "{{.State.ExitCode}}") == "0")
        } catch {
            let logs = (try? await podman(["logs", Self.container]))?.output ?? "(none)"
            print("container image: the container's log:\n\(logs)")
            await recorder.stop()
            await removeContainer()
            throw error
        }
        await recorder.stop()
        await removeContainer()
    }

    /// The image's ten largest Debian packages, for the README's table of what is in it.
    private func printLargestPackages() async throws {
        let listed = try await podman(
            ["run", "--rm"] + Self.runtime + Self.limits + [
                "--entrypoint", "dpkg-query", Self.image, "-W", "-f", "${Installed-Size}\t${Package}\n",
            ])
        try #require(listed.exit == .exited(0), "dpkg-query in the image: \(listed.output)")
        let sizes = listed.lines.compactMap { line -> (kilobytes: Int, name: String)? in
            let fields = line.split(separator: "\t")
            guard fields.count == 2, let kilobytes = Int(fields[0]) else { return nil }
            return (kilobytes, String(fields[1]))
        }
        #expect(sizes.contains { $0.name == "gatt2mqtt" }, "the package is in the image")
        #expect(!sizes.contains { $0.name == "bluez" }, "bluez is only recommended: the host runs bluetoothd")
        let largest = sizes.sorted { $0.kilobytes > $1.kilobytes }.prefix(10)
        print(
            "container image: \(sizes.count) packages, the largest: "
                + largest.map { "\($0.name) \(String(format: "%.1f", Double($0.kilobytes) / 1024)) MiB" }.joined(
                    separator: ", "))
    }

    // MARK: The build's inputs

    /// The Dockerfile's runtime stage, from its second `FROM` to the end, with its mount of the package stage's
    /// output replaced by one of the build context's folder; fails if that mount is not in it word for word.
    private func runtimeStage() throws -> String {
        let dockerfile = try String(contentsOfFile: ProjectPaths.root + "/docker/Dockerfile", encoding: .utf8)
        let lines = dockerfile.components(separatedBy: "\n")
        let froms = lines.indices.filter { lines[$0].hasPrefix("FROM ") }
        try #require(froms.count == 2, "docker/Dockerfile has two stages (FROM lines: \(froms.map { lines[$0] }))")
        var stage = Array(lines[froms[1]...])
        try #require(
            stage[0] == "FROM debian:trixie-slim", "the runtime stage starts FROM debian:trixie-slim: \(stage[0])")
        let mounts = stage.indices.filter { stage[$0] == Self.packageMount }
        try #require(mounts.count == 1, "the runtime stage has the line '\(Self.packageMount)' once")
        stage[mounts[0]] = Self.contextMount
        try #require(
            !stage.contains { $0.contains("from=") }, "the runtime stage takes nothing else from another stage")
        return stage.joined(separator: "\n")
    }

    /// The build context: the runtime stage, the entry script where the Dockerfile's COPY expects it, and the
    /// package alone.
    private func makeContext(_ context: String, containerfile: String, deb: String) throws {
        let files = FileManager.default
        try files.createDirectory(atPath: context + "/docker", withIntermediateDirectories: true)
        try files.createDirectory(atPath: context + "/package", withIntermediateDirectories: true)
        try containerfile.write(toFile: context + "/Containerfile", atomically: true, encoding: .utf8)
        try files.copyItem(
            atPath: ProjectPaths.root + "/docker/entrypoint.sh", toPath: context + "/docker/entrypoint.sh")
        try files.copyItem(atPath: deb, toPath: context + "/package/" + URL(fileURLWithPath: deb).lastPathComponent)
    }

    // MARK: podman

    private struct Finished {
        let exit: ProcessExit
        let lines: [String]
        let output: String
    }

    private func run(_ command: [String], timeout: Duration = .seconds(60)) async throws -> Finished {
        let process = try ManagedProcess.launch(command[0], arguments: Array(command.dropFirst()))
        let exit = try await process.waitForExit(timeout: timeout)
        return Finished(
            exit: exit, lines: process.lines.filter { $0.stream == .stdout }.map(\.text), output: process.outputText)
    }

    private func podman(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> Finished {
        try await run(["podman"] + arguments, timeout: timeout)
    }

    private func inspect(image format: String) async throws -> String {
        let result = try await podman(["image", "inspect", "--format", format, Self.image])
        try #require(result.exit == .exited(0), "podman image inspect: \(result.output)")
        return result.lines.joined(separator: "\n")
    }

    private func inspect(container format: String) async throws -> String {
        let result = try await podman(["container", "inspect", "--format", format, Self.container])
        try #require(result.exit == .exited(0), "podman container inspect: \(result.output)")
        return result.lines.joined(separator: "\n")
    }

    /// Removes the container and its anonymous volume (the image's VOLUME), whatever state it is in.
    private func removeContainer() async {
        _ = try? await podman(["rm", "--force", "--volumes", "--ignore", "--time", "0", Self.container])
    }

    /// Removes what the test made: the container, the image (its layers with it) and the build context. The
    /// base image and its tar stay, the cache of the next run.
    private func cleanUp(_ context: String) async {
        await removeContainer()
        _ = try? await podman(["rmi", "--ignore", Self.image], timeout: .seconds(120))
        try? FileManager.default.removeItem(atPath: context)
    }
}
