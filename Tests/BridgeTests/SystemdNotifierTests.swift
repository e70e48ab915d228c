import Foundation
import Locks
import Logging
import Testing

@testable import Bridge

#if canImport(Glibc)
    import Glibc
#endif

/// The notifier against a fake systemd: a bound SOCK_DGRAM socket whose datagrams the tests read back.
struct SystemdNotifierTests {
    // MARK: Messages

    @Test func readySaysReadyAndTheStatusInOneDatagram() throws {
        let systemd = try FakeNotifySocket()
        let notifier = SystemdNotifier(quietly: ["NOTIFY_SOCKET": systemd.address])
        #expect(notifier.isEnabled)

        #expect(notifier.ready(status: "bridge running on hci0"))
        #expect(systemd.receive() == "READY=1\nSTATUS=bridge running on hci0")
        #expect(notifier.ready())
        #expect(systemd.receive() == "READY=1")
        #expect(systemd.pending().isEmpty)
    }

    @Test func sendsStoppingStatusAndWatchdogAsTheyAre() throws {
        let systemd = try FakeNotifySocket()
        let notifier = SystemdNotifier(quietly: ["NOTIFY_SOCKET": systemd.address])

        #expect(notifier.status("2 devices connected"))
        #expect(notifier.watchdog())
        #expect(notifier.stopping())
        #expect(notifier.stopping(status: "disconnecting devices"))
        #expect(systemd.receive() == "STATUS=2 devices connected")
        #expect(systemd.receive() == "WATCHDOG=1")
        #expect(systemd.receive() == "STOPPING=1")
        #expect(systemd.receive() == "STOPPING=1\nSTATUS=disconnecting devices")
        #expect(systemd.pending().isEmpty)
    }

    @Test func aStatusStaysOnOneLineSoItCannotAddAssignments() throws {
        let systemd = try FakeNotifySocket()
        let notifier = SystemdNotifier(quietly: ["NOTIFY_SOCKET": systemd.address])

        notifier.status("belt \"x\nREADY=1\r\nSTOPPING=1\"")
        #expect(systemd.receive() == "STATUS=belt \"x READY=1 STOPPING=1\"")
    }

    @Test func reachesAnAbstractNamespaceSocket() throws {
        let systemd = try FakeNotifySocket(abstract: true)
        #expect(systemd.address.hasPrefix("@"))
        let notifier = SystemdNotifier(quietly: ["NOTIFY_SOCKET": systemd.address])

        #expect(notifier.ready(status: "abstract"))
        #expect(systemd.receive() == "READY=1\nSTATUS=abstract")
    }

    // MARK: Outside systemd, and bad sockets

    @Test func withoutNotifySocketEveryCallIsASilentNoOp() async throws {
        for environment in [[:], ["NOTIFY_SOCKET": ""], ["WATCHDOG_USEC": "2000"]] {
            let notifier = SystemdNotifier(quietly: environment)
            #expect(!notifier.isEnabled)
            #expect(!notifier.ready(status: "x"))
            #expect(!notifier.status("x"))
            #expect(!notifier.watchdog())
            #expect(!notifier.stopping())
            #expect(try notifier.send("READY=1") == false)

            let health = HealthScript([])
            let loop = Task { await notifier.runWatchdog { health.check() } }
            loop.cancel()
            await loop.value
            #expect(health.count == 0)
        }
    }

    @Test(arguments: ["relative/notify", "vsock:2:1234", "/", "@", "notify"])
    func anUnsupportedNotifySocketIsAnErrorNotACrash(value: String) {
        let notifier = SystemdNotifier(quietly: ["NOTIFY_SOCKET": value])
        #expect(!notifier.isEnabled)
        #expect(!notifier.ready())
        #expect(throws: SystemdNotifierError.unsupportedSocketAddress(value)) { try notifier.send("READY=1") }
    }

    @Test(arguments: ["/" + String(repeating: "p", count: 107), "@" + String(repeating: "a", count: 108)])
    func aNotifySocketTooLongForSunPathIsAnError(value: String) {
        let notifier = SystemdNotifier(quietly: ["NOTIFY_SOCKET": value])
        #expect(!notifier.isEnabled)
        #expect(!notifier.watchdog())
        #expect(throws: SystemdNotifierError.socketAddressTooLong(value)) { try notifier.send("WATCHDOG=1") }
    }

    @Test func theLongestAddressesFit() throws {
        #expect(try NotifySocketAddress("/" + String(repeating: "p", count: 106)).pathBytes.count == 107)
        #expect(try NotifySocketAddress("@" + String(repeating: "a", count: 107)).pathBytes.count == 108)
        #expect(try NotifySocketAddress("@name").pathBytes == [0] + Array("name".utf8))
    }

    @Test func aSocketNobodyListensOnIsReportedNotThrownAtTheCaller() throws {
        let directory = try FakeNotifySocket.temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/absent"
        let notifier = SystemdNotifier(quietly: ["NOTIFY_SOCKET": path])
        #expect(notifier.isEnabled)
        #expect(!notifier.watchdog())
        #expect(throws: SystemdNotifierError.sendFailed(socket: path, errno: ENOENT)) {
            try notifier.send("WATCHDOG=1")
        }
    }

    // MARK: Watchdog settings

    @Test func theWatchdogIntervalIsHalfOfWatchdogUsec() {
        let notifier = SystemdNotifier(quietly: ["NOTIFY_SOCKET": "/run/systemd/notify", "WATCHDOG_USEC": "30000000"])
        #expect(notifier.watchdogTimeout == .seconds(30))
        #expect(notifier.watchdogInterval == .seconds(15))
        #expect(SystemdNotifier(quietly: ["WATCHDOG_USEC": "3"]).watchdogInterval == .nanoseconds(1500))
    }

    @Test func watchdogPidMustBeThisProcess() {
        let ours = SystemdNotifier(quietly: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": String(getpid())])
        #expect(ours.watchdogInterval == .seconds(1))
        let theirs = SystemdNotifier(quietly: ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": String(getpid() + 1)])
        #expect(theirs.watchdogInterval == nil)
        #expect(theirs.watchdogTimeout == nil)
    }

    @Test(arguments: [
        ["WATCHDOG_USEC": "0"],
        ["WATCHDOG_USEC": ""],
        ["WATCHDOG_USEC": "-5"],
        ["WATCHDOG_USEC": "30s"],
        ["WATCHDOG_USEC": String(UInt64.max)],
        ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "0"],
        ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": "init"],
        ["WATCHDOG_USEC": "2000000", "WATCHDOG_PID": ""],
        [:],
    ])
    func noOrInvalidWatchdogSettingsMeanNoWatchdog(environment: [String: String]) {
        #expect(SystemdNotifier(quietly: environment).watchdogInterval == nil)
    }

    // MARK: Watchdog loop

    @Test func pingsAtTheIntervalWhileHealthy() async throws {
        let systemd = try FakeNotifySocket()
        let notifier = SystemdNotifier(quietly: [
            "NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "20000", "WATCHDOG_PID": String(getpid()),
        ])
        let interval = try #require(notifier.watchdogInterval)
        #expect(interval == .milliseconds(10))
        let health = HealthScript([true, true, true])  // then unhealthy, so no fourth ping can sneak in

        let start = ContinuousClock.now
        let loop = Task { await notifier.runWatchdog { health.check() } }
        await health.waitForChecks(3)
        loop.cancel()
        await loop.value

        #expect(systemd.pending() == ["WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"])
        // Check n+1 never starts before check n's start plus the interval (sleeps do not end early).
        #expect(health.times[2] - start >= interval * 2)
    }

    @Test func anUnhealthyDaemonSendsNoWatchdog() async throws {
        let systemd = try FakeNotifySocket()
        let notifier = SystemdNotifier(quietly: ["NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "2000"])
        let health = HealthScript([false, false, false])

        let loop = Task { await notifier.runWatchdog { health.check() } }
        await health.waitForChecks(3)
        loop.cancel()
        await loop.value

        // Each send completes before runWatchdog goes on, so after it ended the socket holds all there is.
        #expect(systemd.pending().isEmpty)
    }

    @Test func pingsResumeWhenTheHealthCheckPassesAgain() async throws {
        let systemd = try FakeNotifySocket()
        let notifier = SystemdNotifier(quietly: ["NOTIFY_SOCKET": systemd.address, "WATCHDOG_USEC": "2000"])
        let health = HealthScript([true, false, false, true])

        let loop = Task { await notifier.runWatchdog { health.check() } }
        await health.waitForChecks(4)
        loop.cancel()
        await loop.value

        #expect(systemd.pending() == ["WATCHDOG=1", "WATCHDOG=1"])
    }

    @Test func withoutWatchdogUsecTheLoopOnlyWaitsForCancellation() async throws {
        let systemd = try FakeNotifySocket()
        let notifier = SystemdNotifier(quietly: ["NOTIFY_SOCKET": systemd.address])
        let health = HealthScript([true])

        let loop = Task { await notifier.runWatchdog { health.check() } }
        for _ in 0..<10 { await Task.yield() }
        loop.cancel()
        await loop.value

        #expect(health.count == 0)
        #expect(systemd.pending().isEmpty)
    }
}

extension SystemdNotifier {
    /// A notifier whose expected complaints (bad settings, absent sockets) stay out of the test log.
    fileprivate init(quietly environment: [String: String]) {
        var logger = Logger(label: "test.systemd")
        logger.logLevel = .critical
        self.init(environment: environment, logger: logger)
    }
}

/// A health check that answers from a script (then "unhealthy") and lets the test await its calls.
private final class HealthScript: Sendable {
    private struct State {
        var verdicts: [Bool]
        var times: [ContinuousClock.Instant] = []
        var waiter: (count: Int, continuation: CheckedContinuation<Void, Never>)?
    }
    private let state: Mutex<State>

    init(_ verdicts: [Bool]) { state = Mutex(State(verdicts: verdicts)) }

    var count: Int { state.withLock { $0.times.count } }
    var times: [ContinuousClock.Instant] { state.withLock { $0.times } }

    func check() -> Bool {
        let now = ContinuousClock.now
        let (verdict, ready) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            state.times.append(now)
            let verdict = state.verdicts.isEmpty ? false : state.verdicts.removeFirst()
            guard let waiter = state.waiter, state.times.count >= waiter.count else { return (verdict, nil) }
            state.waiter = nil
            return (verdict, waiter.continuation)
        }
        ready?.resume()
        return verdict
    }

    /// Returns once the check has been called `count` times.
    func waitForChecks(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                if state.times.count >= count { return true }
                state.waiter = (count, continuation)
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

/// Stands in for systemd's notify socket: a SOCK_DGRAM socket bound at a temporary path or an
/// abstract name, whose `address` is what `NOTIFY_SOCKET` would hold.
private final class FakeNotifySocket {
    let descriptor: Int32
    let address: String
    private let directory: String?

    init(abstract: Bool = false) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw FakeSocketError("socket", errno) }
        if abstract {
            directory = nil
            address = "@gatt2mqtt-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        } else {
            let directory = try Self.temporaryDirectory()
            self.directory = directory
            address = directory + "/notify"
        }
        let result = Self.bindSocket(descriptor, to: address)
        guard result == 0 else {
            let code = errno
            close(descriptor)
            if let directory { rmdir(directory) }
            throw FakeSocketError("bind \(address)", code)
        }
    }

    deinit {
        close(descriptor)
        if let directory {
            unlink(address)
            rmdir(directory)
        }
    }

    /// Binds as systemd does, written out here rather than borrowed from the code under test: a path
    /// with its NUL counted in the length, or NUL + name for an abstract socket with no NUL after it.
    private static func bindSocket(_ descriptor: Int32, to address: String) -> Int32 {
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let isAbstract = address.hasPrefix("@")
        let bytes = isAbstract ? [0] + Array(address.utf8.dropFirst()) : Array(address.utf8)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: bytes) }
        let length = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (isAbstract ? 0 : 1)
        return withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
        }
    }

    /// A fresh directory under /tmp, short enough for sun_path.
    static func temporaryDirectory() throws -> String {
        var template = Array("/tmp/gatt2mqtt-notify-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw FakeSocketError("mkdtemp", errno) }
        return String(cString: made)
    }

    /// The next datagram, waiting up to `timeout`; nil when none came.
    func receive(timeout: Duration = .seconds(5)) -> String? {
        let (seconds, attoseconds) = timeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        return read(flags: 0)
    }

    /// Every datagram already queued, without waiting.
    func pending() -> [String] {
        var datagrams: [String] = []
        while let datagram = read(flags: Int32(MSG_DONTWAIT)) { datagrams.append(datagram) }
        return datagrams
    }

    private func read(flags: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, flags) }
        guard count >= 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}

private struct FakeSocketError: Error, CustomStringConvertible {
    let description: String
    init(_ call: String, _ code: Int32) { description = "\(call): \(String(cString: strerror(code)))" }
}
