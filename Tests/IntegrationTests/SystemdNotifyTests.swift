import Foundation
import TestSupport
import Testing

/// The daemon under a `Type=notify` unit: READY once running, WATCHDOG pings at half WATCHDOG_USEC,
/// STOPPING on SIGTERM — received on a fake notify socket.
@Suite(.serialized)
struct SystemdNotifyTests {
    @Test func theDaemonTalksToSystemd() async throws {
        try await TestWorld.with { world in
            let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
                "notify-\(UUID().uuidString.prefix(8))"
            ).path
            // A stand-in for systemd's notify socket: prints every datagram, newlines as '|'.
            let systemd = try world.launch(
                ProjectPaths.python,
                [
                    "-u", "-c",
                    """
                    import socket, sys
                    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
                    s.bind(sys.argv[1])
                    print("BOUND", flush=True)
                    while True:
                        print(s.recv(4096).decode().replace("\\n", "|"), flush=True)
                    """, socket,
                ], name: "fake-systemd")
            try await systemd.waitForLine { $0 == "BOUND" }
            let daemon = try await world.startBridge(extraEnvironment: [
                "NOTIFY_SOCKET": socket, "WATCHDOG_USEC": "1000000",
            ])
            try await systemd.waitForLine { $0 == "READY=1|STATUS=running on hci0 as gateway test" }
            // Pings every half second while D-Bus answers.
            try await systemd.waitForLine { $0 == "WATCHDOG=1" }
            try await systemd.waitForLine(after: systemd.lineCount) { $0 == "WATCHDOG=1" }  // and again
            daemon.send(SIGTERM)
            try await systemd.waitForLine { $0 == "STOPPING=1|STATUS=disconnecting devices" }
            #expect(try await daemon.waitForExit() == .exited(0))
            try? FileManager.default.removeItem(atPath: socket)
        }
    }
}
