#if canImport(Glibc)
    import Glibc
#endif

/// Starts the detached thread an I/O loop runs on. A pthread rather than Foundation's `Thread`, so that
/// the layers below the bridge need nothing beyond FoundationEssentials.
public final class IOThread: Sendable {
    private let name: String
    private let body: @Sendable () -> Void

    private init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs `body` on a new detached thread named `name` (at most 15 bytes, the kernel's limit); nil when
    /// the thread could not be created.
    public static func start(name: String, _ body: @escaping @Sendable () -> Void) -> pthread_t? {
        IOThread(name: name, body: body).start()
    }

    private func start() -> pthread_t? {
        let retained = Unmanaged.passRetained(self)  // released when the thread ends
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                let started = Unmanaged<IOThread>.fromOpaque(context!).takeRetainedValue()
                started.run()
                return nil
            }, retained.toOpaque())
        if created == 0 {
            pthread_detach(thread)
            return thread
        } else {
            retained.release()
            return nil
        }
    }

    private func run() {
        nameThisThread()
        body()
    }

    /// What `top -H` and perf show. Glibc's module leaves out pthread_setname_np (a GNU extension), so the
    /// name goes through procfs, as that call does itself.
    private func nameThisThread() {
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        close(file)
    }
}
