import Foundation
import TestSupport
import Testing

/// Whether the container image is tested: in the installed tier, where podman is.
enum ContainerImage {
    static var enabled: Bool {
        InstalledPackages.enabled && (try? ExecutableLocator.find("podman")) != nil
    }

    /// This machine's architecture, as Debian and podman name it.
    static var nativeArchitecture: String {
        #if arch(arm64)
            "arm64"
        #else
            "amd64"
        #endif
    }

    /// The architecture whose image is built and run: `GATT2MQTT_CONTAINER_ARCH` (scripts/test runs the arm64 image under
    /// qemu-user in the arm64 world, with binfmt_misc registered), else this machine's.
    static var architecture: String {
        let asked = ProcessInfo.processInfo.environment["GATT2MQTT_CONTAINER_ARCH"] ?? ""
        return asked.isEmpty ? nativeArchitecture : asked
    }

    static var isNative: Bool { architecture == nativeArchitecture }

    /// The package of `architecture`: the installed tier's (`GATT2MQTT_PACKAGES`, else .build/package), or its `arm64/`
    /// folder's, where `scripts/package --arch arm64` leaves it.
    static func package(version: String) throws -> String {
        let current = try InstalledPackages.current().deb
        if isNative { return current }
        let folder = URL(fileURLWithPath: current).deletingLastPathComponent().path + "/" + architecture
        let name = "gatt2mqtt_\(version)_\(architecture).deb"
        try #require(
            FileManager.default.fileExists(atPath: folder + "/" + name), "\(folder)/\(name) (scripts/package --arch)")
        return folder + "/" + name
    }
}

/// A finished command: how it ended, its standard output's lines, everything it wrote.
struct CommandResult {
    let exit: ProcessExit
    let lines: [String]
    let output: String
}

/// podman as the container tests run it, and the build of an image that another architecture's tests keep.
enum Podman {
    /// What podman needs on this machine: runc (crun refuses cgroups in hybrid mode) and rlimits no higher
    /// than the runner's own hard ones (raising them, as podman's defaults would, is not permitted here).
    static let runtime = ["--runtime", "runc"]
    static let limits = ["--ulimit", "nofile=1000:1000", "--ulimit", "nproc=1000:1000"]
    /// The lock scripts/container-base takes: one change to the images at a time.
    static var lock: String { ProjectPaths.root + "/.build/container/lock" }
    /// How long scripts/images may take (ContainerImageTests), and so hold the lock a build beside waits for.
    static let imagesTimeout = Duration.seconds(2400)
    /// How long one `podman build` may take once it holds the lock.
    static let buildTimeout = 900
    /// The label that names the hash of an image's inputs (`inputs(of:architecture:)`).
    static let inputsLabel = "org.gatt2mqtt.inputs"

    static func run(_ command: [String], timeout: Duration = .seconds(60)) async throws -> CommandResult {
        try await finish(ManagedProcess.launch(command[0], arguments: Array(command.dropFirst())), timeout: timeout)
    }

    /// A launched command, once it has ended.
    static func finish(_ process: ManagedProcess, timeout: Duration) async throws -> CommandResult {
        let exit = try await process.waitForExit(timeout: timeout)
        return CommandResult(
            exit: exit, lines: process.lines.filter { $0.stream == .stdout }.map(\.text), output: process.outputText)
    }

    static func podman(_ arguments: [String], timeout: Duration = .seconds(60)) async throws -> CommandResult {
        try await run(["podman"] + arguments, timeout: timeout)
    }

    /// Builds `image` for `architecture` from `context` (`arguments` name the file and any build arguments), after
    /// making its base (scripts/container-base: Debian 13's minbase, the `debian:trixie-slim` its FROM resolves to).
    /// An image is kept, labelled with a hash of everything it is made of, and made again only when one of those changed
    /// (the package above all); scripts/test's stage table hears which. Another architecture's build runs apt and the
    /// maintainer scripts under qemu-user (about five minutes for arm64 here); even the native ones (25-45 s each) took a
    /// core from the installed tier's guests as they booted beside them. The file's `dependencies` stage (the package's
    /// Depends installed, four of those five minutes) is kept too, as `<image>-dependencies`: podman's layer cache
    /// takes its steps from that image while the COPY that starts it copies the same Depends (podman keys a COPY by
    /// what it copies, a RUN by its text and the layer beneath; a RUN's bind mounts count for nothing, so the package
    /// goes in by COPY). The tag keeps the prune below from taking it. An image without such a stage: nil.
    /// Returns whether the kept image was used, and the time it took, the base's included.
    static func build(
        image: String, architecture: String, context: String, arguments: [String], dependencies: String?
    ) async throws -> (reused: Bool, time: Duration) {
        let started = ContinuousClock.now
        let base = try await run(
            // scripts/container-base takes the lock too, so its time includes the wait for it.
            [ProjectPaths.root + "/scripts/container-base", "--arch", architecture],
            timeout: imagesTimeout + .seconds(900))
        try #require(base.exit == .exited(0), "scripts/container-base failed:\n\(base.output)")
        let inputs = try await inputs(of: context, architecture: architecture)
        let held = try await podman([
            "image", "inspect", "--format", "{{.Id}} {{index .Labels \"\(inputsLabel)\"}}", image,
        ])
        let previous = held.exit == .exited(0) ? held.lines.joined() : nil
        let reused = previous?.hasSuffix(" " + inputs) == true
        if !reused {
            let buildAndWait = imagesTimeout + .seconds(buildTimeout + 30)
            // Under scripts/container-base's lock, as the prune below: a prune from the suite beside must never take
            // an earlier stage's image while this build still needs it.
            // The wait for the lock does not count against the build's own time: in a run whose scripts/images (from
            // ContainerImageTests beside) made the arm64 toolchain again, the add-on's build waited 900 s for the lock
            // and failed, never having started. The lock is waited for as long as its holder may keep it.
            let build =
                [
                    "flock", "--wait", "\(Int(imagesTimeout / .seconds(1)))", lock,
                    "timeout", "--kill-after=10", "\(buildTimeout)", "podman", "build",
                ] + runtime + limits + [
                    "--network", "host", "--pull=never", "--force-rm", "--platform", "linux/\(architecture)",
                    // Docker's image format: OCI's has no HEALTHCHECK, which podman would drop with a warning.
                    "--format", "docker",
                ]
            if let dependencies {
                let kept = image + "-dependencies"
                let keptBefore = try await podman(["image", "inspect", "--format", "{{.Id}}", kept]).lines.joined()
                let stage = try await run(
                    build + ["--target", dependencies, "-t", kept] + arguments + [context], timeout: buildAndWait)
                try #require(
                    stage.exit == .exited(0), "podman build --target \(dependencies) failed:\n\(stage.output)")
                let keptNow = try await podman(["image", "inspect", "--format", "{{.Id}}", kept]).lines.joined()
                noteCache(keptNow == keptBefore ? "hit" : "made", "\(kept) (\(architecture))")
            }
            let whole = try await run(
                build + ["-t", image, "--label", "\(inputsLabel)=\(inputs)"] + arguments + [context],
                timeout: buildAndWait)
            try #require(whole.exit == .exited(0), "podman build failed:\n\(whole.output)")
            // The image the tag held before, now untagged; under the lock too: a build beside (scripts/images, from the
            // container test) that looks through the store for its cached layers while an image goes fails ("layer not
            // known"), as it did once in the arm64 world.
            if let old = previous?.split(separator: " ").first {
                _ = try? await run(["flock", lock, "podman", "rmi", String(old)], timeout: imagesTimeout)
            }
            // The images of the build's later steps (the slim root the package went into) and a dependencies' image
            // whose tag moved on, left untagged: 117 MB a run on amd64. They carry the base's label; only untagged
            // ones are pruned.
            _ = try? await run(
                [
                    "flock", lock, "podman", "image", "prune", "--force", "--filter", "label=org.gatt2mqtt.base",
                ], timeout: imagesTimeout)
        }
        noteCache(reused ? "hit" : "made", "\(image) (\(architecture))")
        return (reused, ContinuousClock.now - started)
    }

    /// A hash of what an image is made of: the build context's files, the base image this architecture's FROM
    /// resolves to, and the architecture. A package counts by what it installs (every file's bytes but its changelog's)
    /// and the packages it needs: a package built again from the same source at another commit differs only in its
    /// date, and should not cost another build under emulation.
    static func inputs(of context: String, architecture: String) async throws -> String {
        let base = try await podman([
            "image", "inspect", "--format", "{{.Id}}", "localhost/gatt2mqtt-base:trixie-\(architecture)",
        ])
        try #require(base.exit == .exited(0), "the base image: \(base.output)")
        let hashed = try await run([
            "sh", "-c",
            """
            cd "$1" && { find . -type f | sort | while read -r file; do
                case "$file" in
                    *.deb) { dpkg-deb -f "$file" Package Architecture Pre-Depends Depends Recommends
                             dpkg-deb --fsys-tarfile "$file" | tar -xO --exclude='./usr/share/doc/*'; } | sha256sum ;;
                    *) sha256sum < "$file" ;;
                esac | awk -v f="$file" '{ print $1, f }'
            done && echo "$2 $3"; } | sha256sum
            """, "-", context, base.lines.joined(), architecture,
        ])
        try #require(hashed.exit == .exited(0), "sha256sum of the context: \(hashed.output)")
        return String(hashed.lines.joined().prefix(16))
    }

    /// The folder of the world's system bus socket, which a container mounts as its `/run/dbus`: the socket must be a
    /// system bus's (`system_bus_socket`, as `BusPolicy.debianSystem` names it), where clients look without being told.
    static func systemBusFolder(of world: TestWorld) throws -> String {
        let socket = try #require(
            world.busAddress.hasPrefix("unix:path=") ? String(world.busAddress.dropFirst("unix:path=".count)) : nil,
            "the world's bus is a unix socket")
        try #require(socket.hasSuffix("/system_bus_socket"), "a system bus's socket: \(socket)")
        return URL(fileURLWithPath: socket).deletingLastPathComponent().path
    }

    /// Tells scripts/test's stage table whether a kept thing came from its cache (scripts/lib/cache.sh's `cache_note`).
    static func noteCache(_ kind: String, _ what: String) {
        guard let path = ProcessInfo.processInfo.environment["GATT2MQTT_CACHE_NOTES"], !path.isEmpty,
            let file = FileHandle(forWritingAtPath: path)
        else { return }
        file.seekToEndOfFile()
        file.write(Data("\(kind) \(what)\n".utf8))
        try? file.close()
    }

    /// Fails unless the kernel can run `architecture`'s programs: another architecture's needs a binfmt_misc handler.
    static func requireRunnable(_ architecture: String) throws {
        guard architecture != ContainerImage.nativeArchitecture else { return }
        let handlers = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/sys/fs/binfmt_misc")) ?? []
        try #require(
            handlers.contains { $0.contains("aarch64") },
            "no binfmt_misc handler for aarch64 (scripts/test registers one for the arm64 stage): \(handlers)")
    }
}
