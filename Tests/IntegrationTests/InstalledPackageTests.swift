import Foundation
import TestSupport
import Testing

/// The Debian package as a user meets it: installed by apt on a clean Debian 12 or 13 root (its Depends resolved
/// by apt), booted with systemd as PID 1, the distribution's own dbus-daemon and D-Bus policy, the real
/// bluetoothd started by bluetooth.service, btvirt's controllers and a virtual belt. The unit runs exactly
/// as shipped. Runs when `GATT2MQTT_WORLDS` names `installed` (scripts/test: after scripts/package).
///
/// Each release is a suite of its own, and the two run at once (each guest keeps about one of this machine's two
/// cores busy). Debian 13 is a fresh install; Debian 12 is an upgrade from the previous version, and the upgraded
/// service then passes what the fresh one does before it is purged: one boot where two took about 40 s of a core
/// more, and a path through the stage as long as Debian 13's.
@Suite(.enabled(if: InstalledPackages.enabled, "needs GATT2MQTT_WORLDS=installed and scripts/package's output"))
struct InstalledPackageTests {
    @Suite struct OnDebian12 {
        /// An upgrade from the previous version keeps an edited conffile and the fleet's incarnation and restarts
        /// the daemon; the upgraded service runs a belt, logs at its priorities, stops cleanly, is restarted by the
        /// watchdog and says why it stopped when its bus goes away; a purge leaves nothing behind.
        @Test func anUpgradedServiceUnderSystemdThenAPurge() async throws {
            let packages = try InstalledPackages.current()
            let clock = PhaseClock("installed tier (Debian 12)")
            try await withGuest(installing: packages.previousDeb, release: .bookworm, simulator: packages.simulator) {
                clock.mark("booted")
                try await upgradeKeepsWhatTheUserMade($0, packages: packages)
                clock.mark("upgraded")
                try await serviceRunsAndServesABelt($0, packages: packages, release: .bookworm, clock: clock)
                try await purgeLeavesNothing($0)
                clock.mark("purged")
            }
        }
    }

    @Suite struct OnDebian13 {
        /// A fresh install, as on Debian 12, and then the unit's start limit gives up on a daemon that cannot start.
        @Test func theServiceUnderSystemd() async throws {
            let packages = try InstalledPackages.current()
            let clock = PhaseClock("installed tier (Debian 13)")
            try await withGuest(installing: packages.deb, release: .trixie, simulator: packages.simulator) {
                clock.mark("booted")
                try await serviceRunsAndServesABelt($0, packages: packages, release: .trixie, clock: clock)
            }
        }
    }

    /// Boots a guest with `deb` installed, runs `body` on it and powers it off, whatever `body` did.
    private static func withGuest(
        installing deb: String, release: DebianRelease = .bookworm, simulator: String? = nil,
        _ body: (InstalledGuest) async throws -> Void
    ) async throws {
        let guest = try await InstalledGuest.boot(packages: [deb], release: release, simulator: simulator)
        try await withCleanUp({ await guest.stop() }) { try await body(guest) }
    }

    // MARK: The service

    private static func serviceRunsAndServesABelt(
        _ guest: InstalledGuest, packages: InstalledPackages, release: DebianRelease, clock: PhaseClock
    ) async throws {
        #expect(guest.systemState == "running", "no unit failed at boot, gatt2mqtt's among them")
        let gateway = try await guest.output("hostname")
        let recorder = try await TopicRecorder(url: "mqtt://127.0.0.1:\(guest.mqttPort)")
        defer { Task { await recorder.stop() } }

        // Active only once the daemon said READY=1: its status text is the one READY carries, and systemd's
        // "Started" line follows the daemon's own "bridge running".
        #expect(try await guest.output("systemctl is-active gatt2mqtt") == "active")
        #expect(
            try await guest.output("systemctl show -P StatusText gatt2mqtt").hasPrefix(
                "running on hci0 as gateway \(gateway)"))
        let journal = try await guest.lines("journalctl -b -o cat -u gatt2mqtt")
        let running = journal.firstIndex { $0.contains("bridge running") }
        let started = journal.firstIndex { $0.hasPrefix("Started") }
        #expect(
            running != nil && started != nil && running! < started!,
            "systemd counted it started after the daemon was ready: \(journal)")
        // The sandbox refuses nothing the daemon does (the Swift runtime's thread priorities were, once).
        #expect(
            !journal.contains {
                $0.contains("Failed to set thread priority") || $0.contains("Operation not permitted")
            }, "\(journal)")
        #expect(try await guest.output("gatt2mqtt --version") == (try ProjectPaths.version()))
        // The shell completion the package installs, where bash-completion finds it, completing a setting's values.
        #expect(
            try await guest.output(
                "bash -c '. /usr/share/bash-completion/completions/gatt2mqtt && "
                    + "COMP_WORDS=(gatt2mqtt --devices-auto-connect a) && COMP_CWORD=2 && _gatt2mqtt && echo ${COMPREPLY[*]}'"
            )
                == "adopted all allowed")
        try await recorder.waitFor("gatt2mqtt/\(gateway)/status", timeout: .seconds(60)) {
            $0.payloadString == "online"
        }
        clock.mark("the service checked and online")

        // A belt on the other controller, adopted in a join window (devices in range are strangers until then): its
        // headings reach the broker through the installed daemon.
        let joinState = recorder.mark
        try recorder.publish("gatt2mqtt/\(gateway)/request/permit_join", #"{"duration_s":300}"#)
        try await recorder.waitFor("gatt2mqtt/\(gateway)/permit_join", after: joinState, timeout: .seconds(30)) {
            ($0.payloadString ?? "").contains(#""open":true"#)
        }
        let belt = try await guest.startSimulator(["belt"])
        let address = try #require(
            belt.ready.split(separator: " ").dropFirst(2).first, "READY belt <address> …: \(belt.ready)")
        let id = address.lowercased().replacingOccurrences(of: ":", with: "")
        try await recorder.waitFor("belt/\(id)/connection", timeout: .seconds(120)) { $0.payloadString == "connected" }
        try await recorder.waitFor("belt/\(id)/heading", timeout: .seconds(60))
        clock.mark("a belt adopted and streaming")
        // Kept in the unit's StateDirectory, through the sandbox: the restart below finds the belt adopted.
        #expect(try await guest.output("cat /var/lib/gatt2mqtt/adopted.json").contains(#""address":"\#(address)""#))

        // A warning provoked from the broker is in the journal at priority 4; info lines are not there.
        try recorder.publish("gatt2mqtt/\(gateway)/request/connect", "not json")
        try await recorder.waitFor("gatt2mqtt/\(gateway)/response/connect", timeout: .seconds(30))
        let warnings = try await guest.lines("journalctl -b -o cat -u gatt2mqtt -p warning")
        #expect(warnings.contains { $0.contains("request refused") }, "the warning at its priority: \(warnings)")
        #expect(!warnings.contains { $0.contains("bridge running") }, "an info line is not a warning")
        let priority = try await guest.output(
            #"journalctl -b -u gatt2mqtt -o json --output-fields=PRIORITY,MESSAGE | grep -m1 'request refused' | grep -o '"PRIORITY":"[0-9]"'"#
        )
        #expect(priority == #""PRIORITY":"4""#)

        // The sandbox as shipped.
        let security = try await guest.lines("systemd-analyze security gatt2mqtt --no-pager")
        let exposure = try #require(
            security.compactMap(Self.exposure).first, "systemd-analyze printed an exposure: \(security.suffix(3))")
        print("installed tier: systemd-analyze security gatt2mqtt: exposure \(exposure)")
        #expect(exposure <= 2.0, "\(security.suffix(40).joined(separator: "\n"))")
        clock.mark("the journal's priorities and the sandbox checked")

        // The restart request below comes seconds after the watchdog's restart, which the hold-off
        // (limits.restart_holdoff_s, 120 s) would refuse (`too_soon`): the starts from here on have none, through a
        // drop-in as an administrator would add one; the unit itself stays as shipped. The guest's broker takes
        // anyone, where privileged requests are refused by default (requests.privileged: auto): the drop-in takes them.
        #expect(
            try await guest.run(
                "mkdir -p /etc/systemd/system/gatt2mqtt.service.d && printf '[Service]\\nEnvironment="
                    + "GATT2MQTT_LIMITS_RESTART_HOLDOFF_S=0 GATT2MQTT_REQUESTS_PRIVILEGED=true\\n' > "
                    + "/etc/systemd/system/gatt2mqtt.service.d/holdoff.conf && systemctl daemon-reload"
            ).status == 0)

        // A wedged daemon (SIGSTOP) is killed by the watchdog and started again; the belt comes back (still adopted:
        // the join window did not outlive the process).
        let pid = try await guest.output("systemctl show -P MainPID gatt2mqtt")
        let mark = recorder.mark
        #expect(try await guest.run("systemctl kill -s SIGSTOP gatt2mqtt").status == 0)
        try await recorder.waitFor("gatt2mqtt/\(gateway)/status", after: mark, timeout: .seconds(120)) {
            $0.payloadString == "online"
        }
        try await recorder.waitFor("belt/\(id)/heading", after: mark, timeout: .seconds(120))
        #expect(try await guest.output("systemctl show -P MainPID gatt2mqtt") != pid, "a new process")
        let restarts = try await guest.lines("journalctl -b -o cat -u gatt2mqtt")
        #expect(restarts.contains { $0.contains("Watchdog timeout") }, "systemd's watchdog ended it")
        #expect(try await guest.output("systemctl show -P NRestarts gatt2mqtt") == "1")
        clock.mark("restarted by the watchdog")

        // `request/restart` over MQTT: answered, `offline`, then exit status 75, which the unit restarts (after
        // RestartSec) without counting it a failure: a new process, `online` again, the belt back.
        let restartedFrom = try await guest.output("systemctl show -P MainPID gatt2mqtt")
        let beforeRestart = recorder.mark
        try recorder.publish("gatt2mqtt/\(gateway)/request/restart", "{}")
        let answer = try await recorder.waitFor(
            "gatt2mqtt/\(gateway)/response/restart", after: beforeRestart, timeout: .seconds(30))
        #expect(answer.payloadString == #"{"data":{"restarting":true},"ok":true,"request":"restart"}"#)
        try await recorder.waitFor("gatt2mqtt/\(gateway)/status", after: beforeRestart, timeout: .seconds(30)) {
            $0.payloadString == "offline"
        }
        let offline = recorder.mark
        try await recorder.waitFor("gatt2mqtt/\(gateway)/status", after: offline, timeout: .seconds(120)) {
            $0.payloadString == "online"
        }
        try await recorder.waitFor("belt/\(id)/heading", after: offline, timeout: .seconds(120))
        #expect(try await guest.output("systemctl show -P MainPID gatt2mqtt") != restartedFrom, "a new process")
        #expect(try await guest.output("systemctl show -P NRestarts gatt2mqtt") == "2")
        let requested = try await guest.lines("journalctl -b -o cat -u gatt2mqtt")
        #expect(requested.contains { $0.contains("restarting: exit status 75") }, "why it ended, in the journal")
        clock.mark("restarted on request")

        // `systemctl stop`: `offline` on the broker, exit status 0.
        let beforeStop = recorder.mark
        #expect(try await guest.run("systemctl stop gatt2mqtt", timeout: .seconds(60)).status == 0)
        try await recorder.waitFor("gatt2mqtt/\(gateway)/status", after: beforeStop, timeout: .seconds(30)) {
            $0.payloadString == "offline"
        }
        #expect(try await guest.output("systemctl show -P Result gatt2mqtt") == "success")
        #expect(try await guest.output("systemctl show -P ExecMainStatus gatt2mqtt") == "0")

        // The system bus goes away under the running daemon: it stops, and the line that says why is in
        // `journalctl -p err`, the place an administrator looks first.
        let beforeBus = recorder.mark
        #expect(try await guest.run("systemctl start gatt2mqtt", timeout: .seconds(90)).status == 0)
        try await recorder.waitFor("gatt2mqtt/\(gateway)/status", after: beforeBus, timeout: .seconds(60)) {
            $0.payloadString == "online"
        }
        let since = try await guest.output("date +%s.%N")
        #expect(try await guest.run("systemctl stop dbus.socket dbus.service", timeout: .seconds(60)).status == 0)
        // Waits in the guest for the line as the journal gets it (or 60 s): the first `stopped:` line at err or worse.
        let stopped = try await guest.run(
            "coproc J { timeout 60 journalctl -f -o cat -u gatt2mqtt -p err --since @\(since); };"
                + #" while read -r line <&"${J[0]}"; do case "$line" in *stopped:*) echo "$line"; kill "$J_PID"; break;; esac; done"#,
            timeout: .seconds(90))
        let errors = try await guest.lines("journalctl -o cat -u gatt2mqtt -p err --since @\(since)")
        #expect(
            stopped.output.contains { $0.contains("stopped: lost the D-Bus system bus") },
            "why it stopped, at error priority or worse: \(errors)")
        clock.mark("stopped, started, and stopped by its bus")

        // Without its bus the daemon fails at every start: the unit's start limit (5 starts in 120 s, the earlier
        // starts of this test among them) gives up and leaves it failed, instead of starting it every 5 s for ever.
        // systemd says so in the unit's journal. Once, on Debian 13.
        guard release == .trixie else { return }
        let limit = try await guest.run(
            "coproc J { timeout 120 journalctl -f -o cat -u gatt2mqtt --since @\(since); };"
                + #" while read -r line <&"${J[0]}"; do case "$line" in *"Start request repeated too quickly"*) echo "$line"; kill "$J_PID"; break;; esac; done"#,
            timeout: .seconds(150))
        let starts = try await guest.lines("journalctl -o cat -u gatt2mqtt --since @\(since)")
        #expect(
            limit.output.contains { $0.contains("Start request repeated too quickly") },
            "the start limit tripped: \(starts.suffix(30))")
        #expect(
            try await guest.output("systemctl show -P ActiveState gatt2mqtt") == "failed", "no start after the limit")
        clock.mark("given up by the start limit")
    }

    /// "Overall exposure level for gatt2mqtt.service: 1.9 OK 🙂" → 1.9.
    static func exposure(_ line: String) -> Double? {
        guard let range = line.range(of: "Overall exposure level for gatt2mqtt.service: ") else { return nil }
        return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
    }

    // MARK: Upgrade and purge

    private static func upgradeKeepsWhatTheUserMade(_ guest: InstalledGuest, packages: InstalledPackages) async throws {
        let config = "/etc/gatt2mqtt/gatt2mqtt.yaml"
        let incarnation = "/var/lib/gatt2mqtt/fleet-incarnation"
        #expect(try await guest.output("dpkg-query -W -f '${Version}' gatt2mqtt") == packages.previousVersion)
        #expect(try await guest.output("stat -c '%a %U %G' \(config)") == "640 root gatt2mqtt")
        #expect(try await guest.output("id -nG gatt2mqtt").split(separator: " ").contains("bluetooth"))
        // The user's edit: this gateway joins a fleet, so it keeps an incarnation. The file as shipped is kept aside
        // and put back after the upgrade, for the service's checks that follow.
        #expect(
            try await guest.run(
                "cp -p \(config) /root/gatt2mqtt.yaml.shipped && printf '\\nfleet:\\n  enabled: true\\n' >> \(config)"
                    + " && systemctl restart gatt2mqtt",
                timeout: .seconds(90)
            ).status == 0)
        let before = try #require(
            UInt64(try await guest.output("cat \(incarnation)")), "an incarnation after a fleet start")
        let pid = try await guest.output("systemctl show -P MainPID gatt2mqtt")

        let deb = try guest.share(file: packages.deb, as: "upgrade.deb")
        let upgrade = try await guest.run(
            "DEBIAN_FRONTEND=noninteractive apt-get install -y \(deb)", timeout: .seconds(180))
        #expect(upgrade.status == 0, "\(upgrade.output.suffix(20).joined(separator: "\n"))")
        #expect(try await guest.output("dpkg-query -W -f '${Version}' gatt2mqtt") == packages.version)
        #expect(try await guest.output("grep -c '^  enabled: true' \(config)") == "1", "the edited conffile is kept")
        #expect(try await guest.output("stat -c '%a %U %G' \(config)") == "640 root gatt2mqtt")
        #expect(try await guest.output("systemctl is-active gatt2mqtt") == "active")
        #expect(try await guest.output("systemctl show -P MainPID gatt2mqtt") != pid, "restarted by the upgrade")
        let after = try #require(UInt64(try await guest.output("cat \(incarnation)")))
        #expect(after == before + 1, "the incarnation goes on from the kept file")
        // The file as shipped again, and the unit's start limit (5 starts in 120 s) counted from here, as after a boot:
        // the service's checks that follow start it three times more.
        #expect(
            try await guest.run(
                "cp /root/gatt2mqtt.yaml.shipped \(config) && systemctl reset-failed gatt2mqtt"
                    + " && systemctl restart gatt2mqtt",
                timeout: .seconds(90)
            ).status == 0)
    }

    /// `apt-get purge` takes the user, the group, the configuration, the state and the unit: nothing is left.
    private static func purgeLeavesNothing(_ guest: InstalledGuest) async throws {
        let purge = try await guest.run(
            "DEBIAN_FRONTEND=noninteractive apt-get purge -y gatt2mqtt", timeout: .seconds(120))
        #expect(purge.status == 0, "\(purge.output.suffix(20).joined(separator: "\n"))")
        let left = try await guest.lines(
            "getent passwd gatt2mqtt; getent group gatt2mqtt; ls -d /etc/gatt2mqtt /var/lib/gatt2mqtt /usr/bin/gatt2mqtt 2>/dev/null;"
                + " systemctl list-unit-files gatt2mqtt.service --no-legend; dpkg -l gatt2mqtt 2>/dev/null | grep '^.[^n]'; true"
        )
        #expect(left.isEmpty, "nothing left after a purge: \(left)")
    }
}

/// What scripts/package made for the installed tier: the package, an older version of it for the upgrade,
/// and the static simulator.
struct InstalledPackages: Sendable {
    let deb: String
    let version: String
    let previousDeb: String
    let previousVersion: String
    let simulator: String

    static var enabled: Bool {
        (ProcessInfo.processInfo.environment["GATT2MQTT_WORLDS"] ?? "").split(separator: ",").contains("installed")
    }

    /// From `GATT2MQTT_PACKAGES` (default .build/package): `gatt2mqtt_<version>_<arch>.deb` and the simulator, and
    /// the previous version in its `previous/` folder.
    static func current() throws -> InstalledPackages {
        let folder = ProcessInfo.processInfo.environment["GATT2MQTT_PACKAGES"] ?? ProjectPaths.root + "/.build/package"
        let version = try ProjectPaths.version()
        func deb(in folder: String) throws -> (String, String) {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
                $0.hasPrefix("gatt2mqtt_") && $0.hasSuffix(".deb")
            }
            let name = try #require(names.sorted().last, "a package in \(folder) (scripts/package)")
            return (folder + "/" + name, String(name.split(separator: "_")[1]))
        }
        let (current, builtVersion) = try deb(in: folder)
        #expect(builtVersion == version, "the package has the VERSION file's version")
        let (previous, previousVersion) = try deb(in: folder + "/previous")
        return InstalledPackages(
            deb: current, version: builtVersion, previousDeb: previous, previousVersion: previousVersion,
            simulator: folder + "/gatt2mqtt-sim")
    }
}

extension InstalledGuest {
    /// A command's whole output, trimmed; a failing command throws.
    func output(_ command: String, timeout: Duration = .seconds(60)) async throws -> String {
        let result = try await run(command, timeout: timeout)
        guard result.status == 0 else {
            throw WorldFailure(
                description:
                    "installed guest: '\(command)' exited \(result.status.map(String.init) ?? "on a time-out"): \(result.output.suffix(10))"
            )
        }
        return result.output.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func lines(_ command: String, timeout: Duration = .seconds(60)) async throws -> [String] {
        let text = try await output(command, timeout: timeout)
        return text.isEmpty ? [] : text.components(separatedBy: "\n")
    }
}
