import Foundation

/// The project's Debian package as a user has it: installed by apt on a clean Debian 12 or 13 (the root,
/// made by `scripts/installed/root` with the package's dependencies, reused across builds; the package itself
/// installed by apt into a copy of it, before systemd ever runs there, by `scripts/installed/with-packages`) and booted
/// under qemu (TCG, no KVM needed) with systemd as PID 1, the
/// distribution's dbus-daemon and D-Bus policy, Debian's bluetooth.service, two btvirt LE controllers (hci0
/// for the gateway, hci1 for a simulator) and mosquitto (`scripts/installed/boot`). Nothing of the test
/// environment touches the package's files, its unit or any D-Bus policy (`scripts/installed/guest-main`).
/// An arm64 package makes an arm64 guest (qemu-system-aarch64, Debian 13's arm64 kernel), slower to make
/// (4–5 minutes the first time: its maintainer scripts run under qemu-user) and without controllers: that
/// kernel has no hci_vhci.
///
/// The guest's mosquitto is forwarded to `127.0.0.1:mqttPort` on the host. Everything else goes through
/// the serial console's agent (`GuestConsole`): `run` a shell command as root in the guest. Files reach
/// the guest through `runFolder`, which the guest sees at the same path (`share(file:)`). The root is made
/// once per release and set of dependencies and reused (20–30 s to make, then instant); a boot takes 20–30 s on an idle
/// 2-core machine (up to a minute beside a build), `stop()` 3–10 s. Each guest is its own qemu (1 GB).
///
///     let guest = try await InstalledGuest.boot(packages: [deb], simulator: ".build/package/gatt2mqtt-sim")
///     defer { Task { await guest.stop() } }   // or stop it at the end of the test
///     let (status, lines) = try await guest.run("systemctl is-active gatt2mqtt")
///     let belt = try await guest.startSimulator(["belt"])   // on hci1, READY line in belt.ready
public final class InstalledGuest: Sendable {
    /// The guest's mosquitto (anonymous, port 1883 inside) on the host's loopback.
    public let mqttPort: Int
    /// Shared with the guest at the same path (9p): files handed over, the console's copy (`console.log`)
    /// and, after `stop()`, the guest's journal (`journal.log`). Kept under `GATT2MQTT_KEEP_LOGS`.
    public let runFolder: String
    /// The clean root the guest boots (read-only; the guest writes to a tmpfs overlay of it).
    public let root: String
    /// The guest kernel's release (`uname -r`).
    public let kernelRelease: String
    /// systemd's state when the guest became ready: `running`, or `degraded; failed units: …`, or (when
    /// start-up had not finished after 240 s) `starting …` with the jobs left.
    public let systemState: String
    /// Where the simulator given to `boot` is in the guest, nil without one.
    public let simulator: String?
    /// qemu, whose standard input and output are the guest's console.
    public let console: ManagedProcess
    private let agent: GuestConsole

    /// A simulator started by `startSimulator`, a transient systemd service in the guest.
    public struct Simulator: Sendable {
        /// Its unit (without `.service`): `systemctl stop`, `journalctl -u` it.
        public let unit: String
        /// A FIFO in the guest that is the simulator's standard input: `echo COMMAND > input`.
        public let input: String
        /// Its `READY <family> <address> <name>` line.
        public let ready: String
    }

    /// Makes (or reuses) the root for `packages` (.deb files) and the copy of it with them installed by apt, boots that
    /// and waits for the agent, which answers once systemd has finished starting up and bluetoothd lists both
    /// controllers.
    /// `simulator` (a static gatt2mqtt-sim on the host, as scripts/package leaves beside the package: the guest
    /// has no Swift runtime) is copied into the run folder for `startSimulator`.
    /// `timeout` covers making the root and booting.
    public static func boot(
        packages: [String], release: DebianRelease = .bookworm, simulator: String? = nil,
        timeout: Duration = .seconds(600)
    ) async throws -> InstalledGuest {
        let started = ContinuousClock.now
        let deadline = started + timeout
        let clean = try await makeRoot(packages: packages, release: release, timeout: timeout)
        let root = try await install(packages, into: clean, timeout: max(deadline - ContinuousClock.now, .seconds(1)))
        let prepared = ContinuousClock.now - started
        let port = try FreePort.allocate()
        // Under .build rather than /tmp: the guest's systemd-tmpfiles empties its /tmp at boot (guest-main
        // also exempts the run folder, for a GATT2MQTT_KEEP_LOGS folder there).
        let name = "g2m-installed-\(UUID().uuidString.prefix(8))"
        let runFolder = try GuestConsole.makeRunFolder(name: name, parent: ProjectPaths.root + "/.build/installed")
        do {
            let simulatorInGuest = try simulator.map { try copy($0, to: runFolder + "/gatt2mqtt-sim") }
            let (agent, ready) = try await GuestConsole.boot(
                script: ProjectPaths.root + "/scripts/installed/boot", arguments: [root, runFolder, "\(port)"],
                name: "installed-guest", label: "installed guest", runFolder: runFolder,
                logFile: runFolder + "/console.log",
                timeout: max(deadline - ContinuousClock.now, .seconds(1)))
            // Not at the line's start: systemd 257 (Debian 13) writes terminal resets and a cursor-position query
            // on the console before the agent's first line (its TTYReset= and terminal size probe).
            let marker = "g2m-guest: system "
            let stateLine = agent.process.lines.map(\.text).last(where: { $0.contains(marker) })
            // Where the boot's time went, by the guest's clock (scripts/installed/guest-main's steps, and the agent's
            // end of systemd's start-up).
            let steps = agent.process.lines.compactMap { line in
                line.text.range(of: "g2m-guest: at ").map { String(line.text[$0.upperBound...]) }
            }
            print(
                "installed guest (\(release.rawValue)): ready in \(ContinuousClock.now - started), its root in \(prepared); "
                    + "by the guest's clock: \(steps.joined(separator: "; "))"
            )
            return InstalledGuest(
                mqttPort: port, runFolder: runFolder, root: root,
                kernelRelease: String(ready.split(separator: " ").last ?? ""),
                systemState: stateLine.flatMap { line in line.range(of: marker).map { String(line[$0.upperBound...]) } }
                    ?? "unknown",
                simulator: simulatorInGuest, agent: agent)
        } catch {
            if TestWorld.keptLogs == nil { try? FileManager.default.removeItem(atPath: runFolder) }
            throw error
        }
    }

    private init(
        mqttPort: Int, runFolder: String, root: String, kernelRelease: String, systemState: String, simulator: String?,
        agent: GuestConsole
    ) {
        self.mqttPort = mqttPort
        self.runFolder = runFolder
        self.root = root
        self.kernelRelease = kernelRelease
        self.systemState = systemState
        self.simulator = simulator
        self.agent = agent
        self.console = agent.process
    }

    /// The root for `packages`, made by scripts/installed/root (which reuses a root made for the same files).
    public static func makeRoot(packages: [String], release: DebianRelease, timeout: Duration) async throws -> String {
        guard !packages.isEmpty else { throw WorldFailure(description: "installed guest: no package to install") }
        return try await folder(
            from: "root", arguments: ["--release", release.rawValue] + paths(packages), timeout: timeout)
    }

    /// The copy of `root` with `packages` installed by apt (scripts/installed/with-packages, which reuses one made for
    /// the same root and packages).
    private static func install(_ packages: [String], into root: String, timeout: Duration) async throws -> String {
        try await folder(from: "with-packages", arguments: [root] + paths(packages), timeout: timeout)
    }

    private static func paths(_ packages: [String]) -> [String] {
        packages.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
    }

    /// Runs `scripts/installed/SCRIPT`, which makes or finds a root and prints its folder on its last line.
    private static func folder(from script: String, arguments: [String], timeout: Duration) async throws -> String {
        let maker = try ManagedProcess.launch(
            ProjectPaths.root + "/scripts/installed/" + script, arguments: arguments, name: "installed-\(script)")
        let exit = try await maker.waitForExit(timeout: timeout)
        let folder = maker.lines.filter { $0.stream == .stdout }.last?.text ?? ""
        guard exit == .exited(0), folder.hasPrefix("/") else {
            throw WorldFailure(description: "installed guest: scripts/installed/\(script) \(exit)\n\(maker.outputText)")
        }
        return folder
    }

    /// Runs a shell command (bash, as root) in the guest. Returns its exit status (nil when it timed out) and
    /// its output lines (standard output and error), once it has ended: start what should keep running with
    /// `systemd-run`, whose services the guest's systemd owns.
    public func run(_ command: String, timeout: Duration = .seconds(60)) async throws -> (
        status: Int32?, output: [String]
    ) {
        try await agent.run(command, timeout: timeout)
    }

    /// Copies `file` into the run folder (as `name`, its own name by default; replacing an earlier one) and
    /// returns its path, which is the same in the guest: e.g. a newer .deb for `apt-get install`.
    @discardableResult
    public func share(file: String, as name: String? = nil) throws -> String {
        try Self.copy(file, to: runFolder + "/" + (name ?? URL(fileURLWithPath: file).lastPathComponent))
    }

    /// Starts the simulator given to `boot` as `gatt2mqtt-sim --adapter ADAPTER ARGUMENTS…` in a transient
    /// service (`unit`, by default `g2m-sim-ADAPTER`; stop it with `systemctl stop` before starting another
    /// under the same name) whose standard input is a FIFO, and waits for its `READY` line.
    public func startSimulator(
        _ arguments: [String], adapter: String = "hci1", unit: String? = nil, timeout: Duration = .seconds(60)
    ) async throws -> Simulator {
        guard let simulator else { throw WorldFailure(description: "installed guest: booted without a simulator") }
        let unit = unit ?? "g2m-sim-\(adapter)"
        let input = "/run/\(unit).in"
        // btvirt's controllers, as in the real world (TestWorld.simulatorOptions).
        let command = ([simulator, "--adapter", adapter, "--repeat-advertising"] + arguments).map(
            GuestConsole.shellQuoted
        ).joined(
            separator: " ")
        // The FIFO is opened read-write, so the simulator never sees its end; the READY line is looked for
        // in this invocation's journal only (an earlier run under the same name has its own).
        let script = [
            "rm -f \(input) && mkfifo \(input) && systemd-run --quiet --collect --unit=\(unit) /bin/sh -c "
                + GuestConsole.shellQuoted("exec \(command) <> \(input)") + " || exit 1",
            "id=$(systemctl show -p InvocationID --value \(unit))",
            "for i in $(seq \(max(1, timeout.components.seconds * 5))); do"
                + " line=$(journalctl --no-pager -o cat _SYSTEMD_INVOCATION_ID=$id | grep -m1 '^READY ');"
                + " [ -n \"$line\" ] && { echo \"$line\"; exit 0; };"
                + " systemctl -q is-active \(unit) || break; sleep 0.2; done",
            "systemctl status --no-pager -n 30 \(unit); exit 1",
        ].joined(separator: "; ")
        let (status, output) = try await run(script, timeout: timeout + .seconds(10))
        guard status == 0, let ready = output.last(where: { $0.hasPrefix("READY ") }) else {
            throw WorldFailure(
                description:
                    "installed guest: the simulator did not get ready (\(status.map(String.init) ?? "timeout")):\n"
                    + output.joined(separator: "\n"))
        }
        return Simulator(unit: unit, input: input, ready: ready)
    }

    /// Powers the guest off (a clean `systemctl poweroff`, after the agent has copied the journal to
    /// `runFolder/journal.log`) and removes the run folder unless `GATT2MQTT_KEEP_LOGS` is set.
    public func stop() async {
        await agent.stop(wait: .seconds(60))
        if TestWorld.keptLogs == nil { try? FileManager.default.removeItem(atPath: runFolder) }
    }

    /// Copies `source` to `destination` (replacing it), keeping its permissions; returns `destination`.
    @discardableResult
    private static func copy(_ source: String, to destination: String) throws -> String {
        if FileManager.default.fileExists(atPath: destination) {
            try FileManager.default.removeItem(atPath: destination)
        }
        try FileManager.default.copyItem(atPath: source, toPath: destination)
        return destination
    }
}
