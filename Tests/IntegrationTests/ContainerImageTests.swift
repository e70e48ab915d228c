import Foundation
import TestSupport
import Testing

/// The container image as docker/Dockerfile makes it, built and run with podman (runc) on this machine, with
/// no container registry: `scripts/images`, as the README has it, builds the whole file, its package stage included
/// (compiled on this machine for either architecture, with the toolchains TOOLCHAINS names), from base images made
/// here under the names a registry user pulls (scripts/container-base: Debian 13's minbase slimmed as Debian's slim
/// images are, Debian sid's, and the Swift project's image with this machine's swift.org toolchain). The container then
/// runs the bridge as the image's own user, as the README's `docker run` line has it, against BlueZoo worlds on a bus
/// configured as a Debian 13 host's (its `system.conf` and bluez's `bluetooth.conf` from the installed tier's root), then
/// on a stricter host's, over the host's network (the world's broker listens on 127.0.0.1).
///
/// Needs root, podman and runc, and Debian's mirror (apt inside the build and mmdebstrap). Part of the installed tier.
@Suite(.serialized, .enabled(if: ContainerImage.enabled, "needs GATT2MQTT_WORLDS=installed and podman"))
struct ContainerImageTests {
    static let architecture = ContainerImage.architecture
    /// The image's tag, as scripts/images names it; kept from run to run while what it is made of stays the same.
    static var image: String { "localhost/gatt2mqtt:\((try? ProjectPaths.version()) ?? "unknown")-\(architecture)" }
    /// How this test's lines begin.
    static let say = "container image (\(architecture)):"
    /// The container's name (a leftover of a killed run is removed first).
    static let container = "gatt2mqtt-container-test"
    /// The named volume of the state directory, as the README's `-v gatt2mqtt-state:/var/lib/gatt2mqtt` (removed
    /// before and after).
    static let volume = "gatt2mqtt-test-state"

    @Test func theImageRunsTheBridgeAsItsUnprivilegedUser() async throws {
        let version = try ProjectPaths.version()
        let (reused, buildTime) = try await builtImage(version: version)
        await removeContainer()
        do {
            try await checkAndRun(reused: reused, buildTime: buildTime, version: version)
        } catch {
            await removeContainer()
            throw error
        }
        await removeContainer()
    }

    /// The image, as the README builds it (its "Install" section's `scripts/images`), or kept from an earlier build of
    /// the same inputs. Another architecture's test runs the README's line as written: both images and the manifest
    /// list of them (the native one kept from the installed tier's run before it); the native one's builds its own.
    func builtImage(version: String) async throws -> (reused: Bool, time: Duration) {
        try Podman.requireRunnable(Self.architecture)
        let started = ContinuousClock.now
        let line = try ReadmeBlocks.block(under: "Install", startingWith: "scripts/images")
        try #require(line == ["scripts/images"], "the README builds the images with one line: \(line)")
        let built = try await Podman.run(
            [ProjectPaths.root + "/" + line[0]] + (ContainerImage.isNative ? ["--arch", Self.architecture] : []),
            timeout: Podman.imagesTimeout)
        try #require(built.exit == .exited(0), "scripts/images failed:\n\(built.output)")
        let manifest = try #require(built.lines.last)
        #expect(manifest == "localhost/gatt2mqtt:\(version)", "scripts/images names the manifest list last")
        let listed = try await Podman.podman(["manifest", "inspect", manifest])
        try #require(listed.exit == .exited(0), "podman manifest inspect: \(listed.output)")
        let architectures = ContainerImage.isNative ? [Self.architecture] : ["amd64", "arm64"]
        for architecture in architectures {
            #expect(
                listed.output.contains("\"architecture\": \"\(architecture)\""),
                "the manifest list has the \(architecture) image: \(listed.output)")
        }
        return (built.output.contains("images: kept \(Self.image) "), ContinuousClock.now - started)
    }

    private func checkAndRun(reused: Bool, buildTime: Duration, version: String) async throws {
        let size = try await inspect(image: "{{.Size}}")
        let megabytes = (Double(size) ?? 0) / 1_000_000
        print(
            "\(Self.say) \(reused ? "reused (same inputs)" : "built") \(Self.image) in \(buildTime), "
                + "\(String(format: "%.1f", megabytes)) MB (\(size) bytes)")
        // Small: the package and what it needs, on the slim base (issue #57: at most 120 MB).
        #expect(megabytes <= 120, "the image is \(megabytes) MB")
        try await printLargestPackages()

        // The image as the Dockerfile declares it.
        #expect(try await inspect(image: "{{.Config.User}}") == "gatt2mqtt")
        #expect(try await inspect(image: "{{json .Config.Volumes}}").contains("\"/var/lib/gatt2mqtt\""))
        #expect(try await inspect(image: "{{json .Config.Healthcheck}}").contains("/tmp/gatt2mqtt-alive"))
        #expect(try await inspect(image: "{{.Architecture}}") == Self.architecture)

        // The bus as a Debian 13 host ships it: its system.conf and bluez's bluetooth.conf from the root apt made for
        // the installed world (which this package's dependencies, bluez among them, went into).
        let root = try await InstalledGuest.makeRoot(
            packages: [try InstalledPackages.current().deb], release: .trixie, timeout: .seconds(900))
        let runStarted = ContinuousClock.now
        await removeVolume()
        do {
            try await PrivateBus.$policy.withValue(.debianSystem(root: root, bluetooth: .packaged)) {
                try await TestWorld.with { world in try await runAsTheReadmeSays(in: world, version: version) }
            }
            // The host's policy is the same for every architecture's image: the native one's run tries the rest.
            guard ContainerImage.isNative else {
                await removeVolume()
                print(
                    "\(Self.say) one container on a Debian 13 host's bus, run and stopped, in \(ContinuousClock.now - runStarted)"
                )
                return
            }
            let first = try await incarnation()
            let group = try await admittedGroup()
            try await PrivateBus.$policy.withValue(.debianSystem(root: root, bluetooth: .rootAnd(group: group.name))) {
                try await TestWorld.with { world in try await runUnderAStricterPolicy(in: world, admitting: group) }
            }
            // The state volume outlived its containers: the fleet's incarnation went on from where the first left it.
            #expect(try await incarnation() > first, "the fleet incarnation in the state volume after three containers")
        } catch {
            await removeVolume()
            throw error
        }
        await removeVolume()
        print(
            "\(Self.say) three containers on a Debian 13 host's bus, run and stopped, in \(ContinuousClock.now - runStarted)"
        )
    }

    /// The README's `docker run` line against Debian 13's own policy: the host's bus folder mounted at `/var/run/dbus`, the
    /// state in a named volume, the broker by variable. The bridge runs as the image's user and bridges a belt.
    private func runAsTheReadmeSays(in world: TestWorld, version: String) async throws {
        let belt = try await world.startSimulator(["belt"])
        let id = try belt.simulatedID
        let recorder = try await TopicRecorder(world: world)
        do {
            // Attached, so that the container's log arrives as lines here; it ends with the container.
            let container = try launchContainer(in: world)
            try await container.waitForLine(containing: "gatt2mqtt \(version) starting", timeout: .seconds(60))
            try await recorder.waitFor("gatt2mqtt/container/status") { $0.payloadString == "online" }
            // The belt is a stranger until a join window adopts it.
            try recorder.publish("gatt2mqtt/container/request/permit_join", "{}")
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/\(id)/heading")

            // The HEALTHCHECK passes once the daemon has touched its file (it says so after the first touch).
            try await container.waitForLine(
                containing: "health file /tmp/gatt2mqtt-alive: touched every", timeout: .seconds(60))
            let health = try await Podman.podman(["healthcheck", "run", Self.container])
            #expect(health.exit == .exited(0), "podman healthcheck run: \(health.output)")

            // The container as it runs: the image's user, the state folder on the named volume.
            #expect(try await inspect(container: "{{.Config.User}}") == "gatt2mqtt")
            let mounts = try await inspect(container: "{{range .Mounts}}{{.Type}} {{.Name}} {{.Destination}};{{end}}")
            #expect(
                mounts.split(separator: ";").contains("volume \(Self.volume) /var/lib/gatt2mqtt"), "mounts: \(mounts)")
            let user = try await Podman.podman(["exec", Self.container, "id", "-un"])
            #expect(user.lines == ["gatt2mqtt"], "id -un in the container: \(user.output)")
            let reported = try await Podman.podman(["exec", Self.container, "gatt2mqtt", "--version"])
            #expect(
                reported.exit == .exited(0) && reported.lines == [version], "gatt2mqtt --version: \(reported.output)")

            try await stopCleanly(container, recorder: recorder)
        } catch {
            await failed(recorder)
            throw error
        }
        await recorder.stop()
        await removeContainer()
    }

    /// The host group the stricter policy admits: `bluetooth` (bluez's package makes it, with an id that differs from host
    /// to host), unless its id happens to be one the image's user already has (it would not be refused then); then
    /// `plugdev`, whose id Debian fixes at 46.
    private func admittedGroup() async throws -> (name: String, gid: String) {
        let own = try await Podman.podman(
            ["run", "--rm"] + Podman.runtime + Podman.limits + ["--entrypoint", "id", Self.image, "-G"])
        try #require(own.exit == .exited(0), "id -G in the image: \(own.output)")
        let owned = Set(own.lines.joined(separator: " ").split(separator: " ").map(String.init))
        var admitted: (name: String, gid: String)?
        for name in ["bluetooth", "plugdev"] where admitted == nil {
            let entry = try await Podman.run(["getent", "group", name])
            let fields =
                entry.lines.first?.split(separator: ":", omittingEmptySubsequences: false).map(String.init) ?? []
            if fields.count > 2, !owned.contains(fields[2]) { admitted = (name, fields[2]) }
        }
        return try #require(
            admitted,
            "neither the bluetooth nor the plugdev group of this host has an id the image's user lacks (\(owned))")
    }

    /// A stricter host, whose policy lets only root and one group talk to BlueZ: the container's user is refused, and
    /// says by whom and how to fix it; given the host's group by its id (`--group-add`, as the README says), it bridges
    /// the belt.
    private func runUnderAStricterPolicy(in world: TestWorld, admitting group: (name: String, gid: String)) async throws
    {
        let belt = try await world.startSimulator(["belt"])
        let id = try belt.simulatedID
        let recorder = try await TopicRecorder(world: world)
        do {
            let refused = try launchContainer(in: world)
            let line = try await refused.waitForLine(containing: "refused this process", timeout: .seconds(60))
            #expect(
                line.contains("org.bluez") && line.contains("uid ") && line.contains("--group-add"),
                "the refusal explains itself: \(line)")
            print("\(Self.say) refused by the stricter policy, as it logs it: \(line)")
            try await recorder.waitFor("gatt2mqtt/container/adapter") { $0.payloadString == "unauthorized" }
            try await stopCleanly(refused, recorder: recorder)
            await removeContainer()

            let mark = recorder.mark
            let admitted = try launchContainer(in: world, as: .groupAdd(group: group.name))
            try await recorder.waitFor("gatt2mqtt/container/adapter", after: mark) {
                $0.payloadString == "powered"
            }
            try recorder.publish("gatt2mqtt/container/request/permit_join", "{}")
            try await recorder.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
            #expect(!admitted.outputText.contains("refused this process"), "admitted: \(admitted.outputText)")
            try await stopCleanly(admitted, recorder: recorder)
        } catch {
            await failed(recorder)
            throw error
        }
        await recorder.stop()
        await removeContainer()
    }

    /// One of the README's `docker run` lines as podman runs it here (`ReadmeDockerRun`): the world's bus folder as the
    /// host's `/var/run/dbus` (its socket is a system bus's, `system_bus_socket`), the named state volume, the broker by
    /// variable; over the host's network, where the world's broker listens on 127.0.0.1.
    private func launchContainer(in world: TestWorld, as line: ReadmeDockerRun.Line = .plain) throws -> ManagedProcess {
        let target = ReadmeDockerRun.Target(
            container: Self.container, gateway: "container", busFolder: try Podman.systemBusFolder(of: world),
            volume: Self.volume, broker: world.broker.url, image: Self.image)
        let command = try ReadmeDockerRun.command(line, for: target)
        print("\(Self.say) the README's line, as run here: \(command)")
        return try ManagedProcess.launch("/bin/sh", arguments: ["-c", command], name: "container")
    }

    /// Stopping the container (SIGTERM to the daemon, its PID 1) ends the bridge cleanly: `offline`, exit status 0.
    private func stopCleanly(_ container: ManagedProcess, recorder: TopicRecorder) async throws {
        let mark = recorder.mark
        let stop = try await Podman.podman(["stop", Self.container], timeout: .seconds(60))
        #expect(stop.exit == .exited(0), "podman stop: \(stop.output)")
        try await recorder.waitFor("gatt2mqtt/container/status", after: mark) { $0.payloadString == "offline" }
        #expect(
            try await container.waitForExit(timeout: .seconds(30)) == .exited(0), "podman run: \(container.outputText)")
        #expect(try await inspect(container: "{{.State.ExitCode}}") == "0")
    }

    /// After a failure: the container's log for the reader, and nothing left running.
    private func failed(_ recorder: TopicRecorder) async {
        let logs = (try? await Podman.podman(["logs", Self.container]))?.output ?? "(none)"
        print("\(Self.say) the container's log:\n\(logs)")
        await recorder.stop()
        await removeContainer()
    }

    /// The fleet incarnation the state volume holds, read where podman keeps the volume's files.
    private func incarnation() async throws -> Int {
        let folder = try await Podman.podman(["volume", "inspect", "--format", "{{.Mountpoint}}", Self.volume])
        try #require(folder.exit == .exited(0), "podman volume inspect: \(folder.output)")
        let file = folder.lines.joined() + "/fleet-incarnation"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), "fleet-incarnation: \(text)")
    }

    /// The image's ten largest Debian packages, for the README's table of what is in it.
    private func printLargestPackages() async throws {
        let listed = try await Podman.podman(
            ["run", "--rm"] + Podman.runtime + Podman.limits + [
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
            "\(Self.say) \(sizes.count) packages, the largest: "
                + largest.map { "\($0.name) \(String(format: "%.1f", Double($0.kilobytes) / 1024)) MiB" }.joined(
                    separator: ", "))
    }

    // MARK: podman

    private func inspect(image format: String) async throws -> String {
        let result = try await Podman.podman(["image", "inspect", "--format", format, Self.image])
        try #require(result.exit == .exited(0), "podman image inspect: \(result.output)")
        return result.lines.joined(separator: "\n")
    }

    private func inspect(container format: String) async throws -> String {
        let result = try await Podman.podman(["container", "inspect", "--format", format, Self.container])
        try #require(result.exit == .exited(0), "podman container inspect: \(result.output)")
        return result.lines.joined(separator: "\n")
    }

    /// Removes the container and its anonymous volume (the image's VOLUME), whatever state it is in.
    private func removeContainer() async {
        _ = try? await Podman.podman(["rm", "--force", "--volumes", "--ignore", "--time", "0", Self.container])
    }

    private func removeVolume() async {
        _ = try? await Podman.podman(["volume", "rm", "--force", Self.volume])
    }

}
