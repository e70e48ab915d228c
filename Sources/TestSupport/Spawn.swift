import CCloseOnExec
import Foundation

/// Starts and reaps children with `posix_spawn`.
///
/// Foundation's `Process` is not used because the child inherits the launching thread's signal
/// mask, and Swift concurrency runs on dispatch worker threads that block nearly every signal:
/// a broker launched from a test would ignore SIGTERM. Here the child gets an empty mask and
/// default signal dispositions, its own process group (so a signal reaches its children too),
/// /dev/null (or, when asked, a pipe) as stdin, and pipes as stdout and stderr.
enum Spawn {
    struct Started {
        let pid: Int32
        let stdout: FileHandle
        let stderr: FileHandle
        /// The write end of the child's stdin, when it was asked for.
        let stdin: FileHandle?
    }

    static func start(
        path: String, arguments: [String], environment: [String: String], workingDirectory: String?,
        standardInput: Bool = false
    ) throws -> Started {
        let stdout = try makePipe()
        let stderr = try makePipe()
        let stdin = standardInput ? try makePipe() : nil
        defer {
            // The parent keeps only the read ends of the output pipes, and the write end of stdin.
            close(stdout.write)
            close(stderr.write)
            if let stdin { close(stdin.read) }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin.read, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdout.write, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr.write, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(
            &attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        // posix_spawn_file_actions_addchdir_np is not visible to Swift; env -C does the chdir.
        let command = workingDirectory.map { ["/usr/bin/env", "-C", $0, path] } ?? [path]
        let argv = (command + arguments).map { strdup($0) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") }
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid: Int32 = 0
        let code = posix_spawn(&pid, command[0], &actions, &attributes, argv + [nil], envp + [nil])
        guard code == 0 else {
            close(stdout.read)
            close(stderr.read)
            if let stdin { close(stdin.write) }
            errno = code
            throw POSIXFailure("posix_spawn \(path)")
        }
        return Started(
            pid: pid,
            stdout: FileHandle(fileDescriptor: stdout.read, closeOnDealloc: true),
            stderr: FileHandle(fileDescriptor: stderr.read, closeOnDealloc: true),
            stdin: stdin.map { FileHandle(fileDescriptor: $0.write, closeOnDealloc: true) })
    }

    /// Waits for `pid` on a thread of its own and reports how it ended.
    static func reap(_ pid: Int32, then report: @escaping @Sendable (ProcessExit) -> Void) {
        let thread = Thread {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 {
                guard errno == EINTR else {
                    report(.exited(-1))
                    return
                }
            }
            // The WIFEXITED/WEXITSTATUS/WTERMSIG macros are not imported into Swift.
            let signal = status & 0x7f
            report(signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal))
        }
        thread.name = "reap-\(pid)"
        thread.start()
    }

    /// Signals the process group led by `pid`, falling back to the process alone.
    static func signal(_ pid: Int32, _ signal: Int32) {
        if kill(-pid, signal) != 0 {
            kill(pid, signal)
        }
    }

    private static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        // Close-on-exec from the start, so that no other child (spawned by another thread, even between this
        // call and the spawn) inherits these ends, which would delay EOF until it ended; dup2 clears the flag on
        // the child's own 0, 1 and 2.
        guard pipe2(&fds, O_CLOEXEC) == 0 else { throw POSIXFailure("pipe2") }
        return (fds[0], fds[1])
    }
}
