import Foundation
import TestSupport
import Testing

/// The arm64 package as a Raspberry Pi's user meets it: cross-compiled here (scripts/package --arch arm64),
/// installed by apt on a clean Debian 13 arm64 root, booted under qemu-system-aarch64 (machine virt, a
/// Cortex-A72 emulated, Debian 13's arm64 kernel) with systemd as PID 1, the distribution's dbus-daemon and
/// D-Bus policy, and its bluetoothd. Everything in the guest is arm64 code under emulation. It checks what
/// could differ on arm64: the package installs and its unit runs, the broker hears it, its lines reach the
/// journal at their priorities, and it stops cleanly.
///
/// No belt: Debian's arm64 kernel is built without hci_vhci (CONFIG_BT_HCIVHCI unset), which btvirt's
/// virtual controllers need, so this guest has no controller. The arm64 bridge serves every family in the
/// qemu-user run of this world instead. The test says so when that changes.
@Suite(
    .serialized,
    .enabled(if: Arm64Package.enabled, "needs GATT2MQTT_WORLDS=arm64 and scripts/package --arch arm64's output"))
struct Arm64InstalledPackageTests {
    @Test func theArm64PackageUnderSystemdOnDebian13() async throws {
        let package = try Arm64Package.current()
        // A new root runs every maintainer script under qemu-user (scripts/test makes it before the tests, as a
        // stage of its own, but a run of this test alone may have to), and the emulated machine is slow.
        let guest = try await InstalledGuest.boot(packages: [package.deb], release: .trixie, timeout: .seconds(1500))
        try await withCleanUp({ await guest.stop() }) {
            #expect(guest.systemState == "running", "no unit failed at boot, gatt2mqtt's among them")
            #expect(try await guest.output("uname -m") == "aarch64")
            #expect(
                try await guest.output("dpkg-query -W -f '${Architecture} ${Version}' gatt2mqtt")
                    == "arm64 \(package.version)")
            #expect(try await guest.output("gatt2mqtt --version") == package.version)
            #expect(try await guest.output("systemctl is-active gatt2mqtt") == "active")
            let gateway = try await guest.output("hostname")
            let recorder = try await TopicRecorder(url: "mqtt://127.0.0.1:\(guest.mqttPort)")
            defer { Task { await recorder.stop() } }
            try await recorder.waitFor("gatt2mqtt/\(gateway)/status", timeout: .seconds(120)) {
                $0.payloadString == "online"
            }

            // bluetoothd runs; with no controller, the gateway waits for one.
            #expect(try await guest.output("systemctl is-active bluetooth") == "active")
            let vhci = try await guest.run("modinfo hci_vhci")
            #expect(
                vhci.status != 0,
                "Debian's arm64 kernel has hci_vhci now: give this test its belt (btvirt, gatt2mqtt-sim)")

            // A warning provoked from the broker is in `journalctl -p warning`; info lines are not there.
            try recorder.publish("gatt2mqtt/\(gateway)/request/connect", "not json")
            try await recorder.waitFor("gatt2mqtt/\(gateway)/response/connect", timeout: .seconds(60))
            let warnings = try await guest.lines("journalctl -b -o cat -u gatt2mqtt -p warning")
            #expect(warnings.contains { $0.contains("request refused") }, "the warning at its priority: \(warnings)")
            #expect(!warnings.contains { $0.contains("bridge running") }, "an info line is not a warning")

            // `systemctl stop`: `offline` on the broker, exit status 0.
            let beforeStop = recorder.mark
            #expect(try await guest.run("systemctl stop gatt2mqtt", timeout: .seconds(120)).status == 0)
            try await recorder.waitFor("gatt2mqtt/\(gateway)/status", after: beforeStop, timeout: .seconds(60)) {
                $0.payloadString == "offline"
            }
            #expect(try await guest.output("systemctl show -P Result gatt2mqtt") == "success")
        }
    }
}

/// What scripts/package --arch arm64 made.
struct Arm64Package: Sendable {
    let deb: String
    let version: String

    static var enabled: Bool {
        (ProcessInfo.processInfo.environment["GATT2MQTT_WORLDS"] ?? "").split(separator: ",").contains("arm64")
    }

    static func current() throws -> Arm64Package {
        let folder = ProjectPaths.root + "/.build/package/arm64"
        let version = try ProjectPaths.version()
        let deb = folder + "/gatt2mqtt_\(version)_arm64.deb"
        try #require(FileManager.default.fileExists(atPath: deb), "\(deb) (scripts/package --arch arm64)")
        return Arm64Package(deb: deb, version: version)
    }
}
