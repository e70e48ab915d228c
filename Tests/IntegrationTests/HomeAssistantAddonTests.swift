import Foundation
import TestSupport
import Testing

/// The Home Assistant add-on as a Home Assistant OS user gets it and the Supervisor runs it: the repository
/// `scripts/addon` makes, its add-on built from its Dockerfile with build.yaml's base and the Supervisor's build
/// arguments (BUILD_FROM, BUILD_ARCH), then started as the Supervisor starts it: `/data` with `options.json`,
/// `SUPERVISOR_TOKEN`, the host's system bus at `/run/dbus` (`host_dbus`), the host's network. The Supervisor's API is
/// a stand-in on loopback (scripts/supervisor_standin.py) that offers the world's broker as the mqtt service, with a
/// login the broker checks. The bus is configured as a Debian 13 host's (ContainerImageTests). Part of the installed
/// tier for this machine's architecture, and of the arm64 world's container stage for aarch64.
@Suite(.serialized, .enabled(if: ContainerImage.enabled, "needs GATT2MQTT_WORLDS=installed and podman"))
struct HomeAssistantAddonTests {
    static let architecture = ContainerImage.architecture
    /// The Supervisor's name for the architecture.
    static let addonArchitecture = architecture == "arm64" ? "aarch64" : architecture
    static let image = "localhost/gatt2mqtt-test:addon-\(architecture)"
    static let container = "gatt2mqtt-addon-test"
    static let say = "add-on (\(addonArchitecture)):"
    /// The login the stand-in Supervisor hands out, as the Mosquitto add-on's own `addons` user.
    static let login = (username: "addons", password: "addons-pw-\(UUID().uuidString.prefix(8))")
    static let token = "supervisor-token-\(UUID().uuidString.prefix(8))"

    @Test func theAddonBridgesABeltWithTheSupervisorsBrokerAndOptions() async throws {
        try Podman.requireRunnable(Self.architecture)
        let version = try ProjectPaths.version()
        let packages = URL(fileURLWithPath: try InstalledPackages.current().deb).deletingLastPathComponent().path
        _ = try ContainerImage.package(version: version)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "g2m-addon-\(UUID().uuidString.prefix(8))"
        ).path
        try FileManager.default.createDirectory(atPath: folder + "/data", withIntermediateDirectories: true)
        await removeContainer()
        do {
            try await buildAndRun(folder: folder, packages: packages, version: version)
        } catch {
            await cleanUp(folder)
            throw error
        }
        await cleanUp(folder)
    }

    private func buildAndRun(folder: String, packages: String, version: String) async throws {
        // The repository as scripts/addon makes it for a user's /addons share.
        let made = try await Podman.run(
            [
                ProjectPaths.root + "/scripts/addon", "--packages", packages, "--out", folder + "/addons", "--arch",
                Self.architecture,
            ], timeout: .seconds(120))
        try #require(made.exit == .exited(0), "scripts/addon: \(made.output)")
        let addon = folder + "/addons/gatt2mqtt"
        let configuration = try String(contentsOfFile: addon + "/config.yaml", encoding: .utf8)
        #expect(configuration.contains("version: \"\(version)\""), "config.yaml has VERSION's version")
        #expect(configuration.contains("arch:\n  - \(Self.addonArchitecture)\n"), "config.yaml: \(configuration)")

        let (reused, time) = try await Podman.build(
            image: Self.image, architecture: Self.architecture, context: addon,
            arguments: [
                "--build-arg", "BUILD_FROM=debian:trixie-slim", "--build-arg", "BUILD_ARCH=\(Self.addonArchitecture)",
            ], dependencies: "dependencies")
        let size = try await Podman.podman(["image", "inspect", "--format", "{{.Size}}", Self.image])
        print(
            "\(Self.say) \(reused ? "reused (same inputs)" : "built") \(Self.image) in \(time), \(size.lines.joined()) bytes"
        )

        let root = try await InstalledGuest.makeRoot(
            packages: [try InstalledPackages.current().deb], release: .trixie, timeout: .seconds(900))
        var broker = MosquittoBroker.Options()
        broker.users = [Self.login.username: Self.login.password]
        try await PrivateBus.$policy.withValue(.debianSystem(root: root, bluetooth: .packaged)) {
            try await TestWorld.with(broker: broker) { world in
                try await runAsTheSupervisorDoes(in: world, data: folder + "/data")
            }
        }
    }

    /// The add-on with its defaults but three options a user sets: its gateway's name, the belt on the allow list and
    /// a name for it. The belt connects without a join window, under its name, and the state is kept under /data.
    private func runAsTheSupervisorDoes(in world: TestWorld, data: String) async throws {
        let belt = try await world.startSimulator(["belt"])
        let address = try belt.simulatedAddress
        let recorder = try await TopicRecorder(world: world)
        let supervisor = try await startSupervisor(broker: world.broker)
        do {
            try options(["gateway": "ha", "allow": [address], "aliases": [["address": address, "name": "front"]]])
                .write(toFile: data + "/options.json", atomically: true, encoding: .utf8)
            let addon = try launch(world: world, data: data, supervisor: supervisor.port)
            try await addon.waitForLine(
                containing: "gatt2mqtt add-on: broker \(world.broker.url) as addons", timeout: .seconds(60))
            try await recorder.waitFor("gatt2mqtt/ha/status") { $0.payloadString == "online" }
            try await recorder.waitFor("belt/front/connection") { $0.payloadString == "connected" }
            try await recorder.waitFor("belt/front/heading")
            #expect(FileManager.default.fileExists(atPath: data + "/gatt2mqtt/fleet-incarnation"), "state under /data")
            #expect(!addon.outputText.contains(Self.login.password), "the broker's password is never logged")

            let mark = recorder.mark
            let stop = try await Podman.podman(["stop", Self.container], timeout: .seconds(60))
            #expect(stop.exit == .exited(0), "podman stop: \(stop.output)")
            try await recorder.waitFor("gatt2mqtt/ha/status", after: mark) { $0.payloadString == "offline" }
            #expect(try await addon.waitForExit(timeout: .seconds(30)) == .exited(0), "\(addon.outputText)")
            await removeContainer()

            // An option the schema would let through but the gateway refuses: the add-on stops, its log names it.
            try options(["gateway": "ha", "adapters": ["hci0"], "log_level": "info", "auto_connect": "sometimes"])
                .write(toFile: data + "/options.json", atomically: true, encoding: .utf8)
            let refused = try launch(world: world, data: data, supervisor: supervisor.port)
            let exit = try await refused.waitForExit(timeout: .seconds(60))
            #expect(exit != .exited(0), "a refused option stops the add-on")
            #expect(
                refused.outputText.contains("GATT2MQTT_DEVICES_AUTO_CONNECT")
                    && refused.outputText.contains("sometimes"),
                "the log names the option: \(refused.outputText)")
            let named = refused.lines.map(\.text).first { $0.contains("GATT2MQTT_DEVICES_AUTO_CONNECT") } ?? ""
            print("\(Self.say) refused, as its log says: \(named)")
        } catch {
            let logs = (try? await Podman.podman(["logs", Self.container]))?.output ?? "(none)"
            print("\(Self.say) the add-on's log:\n\(logs)")
            _ = await supervisor.process.terminate()
            await recorder.stop()
            await removeContainer()
            throw error
        }
        _ = await supervisor.process.terminate()
        await recorder.stop()
    }

    /// The add-on's `options.json`: config.yaml's defaults, as the Supervisor writes them, with `changes` over them.
    private func options(_ changes: [String: Any]) throws -> String {
        var options: [String: Any] = [
            "gateway": "homeassistant", "adapters": ["hci0"], "auto_connect": "adopted", "allow": [String](),
            "aliases": [[String: String]](), "discovery_prefix": "homeassistant", "fast_streams": false,
            "log_level": "info",
        ]
        options.merge(changes) { _, new in new }
        return String(
            decoding: try JSONSerialization.data(withJSONObject: options, options: [.sortedKeys]), as: UTF8.self)
    }

    /// The container as the Supervisor starts an add-on with `host_dbus`: the bus folder at /run/dbus, /data, the token.
    /// Here on the host's network, where the world's broker and the stand-in Supervisor listen on loopback (under Home
    /// Assistant OS the add-on reaches `supervisor` and the broker add-on by name on the Supervisor's network).
    private func launch(world: TestWorld, data: String, supervisor port: Int) throws -> ManagedProcess {
        let busFolder = try Podman.systemBusFolder(of: world)
        return try ManagedProcess.launch(
            "podman",
            arguments: Podman.runtime + ["run", "--name", Self.container, "--network", "host"] + Podman.limits + [
                "-v", "\(busFolder):/run/dbus", "-v", "\(data):/data",
                "-e", "SUPERVISOR_TOKEN=\(Self.token)", "-e", "SUPERVISOR_API=http://127.0.0.1:\(port)",
                Self.image,
            ], name: "addon")
    }

    /// The stand-in Supervisor, offering the world's broker with the add-on login.
    private func startSupervisor(broker: MosquittoBroker) async throws -> (process: ManagedProcess, port: Int) {
        let service: [String: Any] = [
            "host": "127.0.0.1", "port": broker.port, "ssl": false, "protocol": "3.1.1",
            "username": Self.login.username, "password": Self.login.password,
        ]
        let json = String(decoding: try JSONSerialization.data(withJSONObject: service), as: UTF8.self)
        let process = try ManagedProcess.launch(
            "python3",
            arguments: [ProjectPaths.root + "/scripts/supervisor_standin.py", "--token", Self.token, "--mqtt", json],
            name: "supervisor")
        let line = try await process.waitForLine(containing: "supervisor-standin: listening on ")
        let port = try #require(Int(line.split(separator: " ").last ?? ""), "the stand-in's port: \(line)")
        return (process, port)
    }

    private func removeContainer() async {
        _ = try? await Podman.podman(["rm", "--force", "--ignore", "--time", "0", Self.container])
    }

    private func cleanUp(_ folder: String) async {
        await removeContainer()
        try? FileManager.default.removeItem(atPath: folder)
    }
}
