import Foundation

/// A private dbus-daemon for one test, started with a clean signal mask (Foundation's Process passes
/// on the test runner's blocked signals, and a child that blocks SIGTERM never stops).
final class PrivateBus: @unchecked Sendable {
    let address: String
    private var pid: pid_t = 0
    private let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("g2m-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        address = "unix:path=\(directory.appendingPathComponent("bus").path)"
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        let argv = ["/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=\(address)", "--print-address=1"]
        var cArgs = argv.map { strdup($0) } + [nil]
        let status = posix_spawn(&pid, argv[0], &actions, &attributes, &cArgs, environ)
        cArgs.forEach { free($0) }
        posix_spawn_file_actions_destroy(&actions)
        posix_spawnattr_destroy(&attributes)
        close(fds[1])
        defer { close(fds[0]) }
        guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .ENOENT) }
        // The daemon prints its address once it listens: wait for that line, not for a fixed time.
        var byte: UInt8 = 0
        while read(fds[0], &byte, 1) == 1, byte != 0x0A {}
    }

    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}
