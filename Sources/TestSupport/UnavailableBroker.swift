import CCloseOnExec
import Foundation
import Locks

/// A port where a broker is not ready yet: every CONNECT is answered "server unavailable" (3.1.1's return
/// code 3, MQTT 5's reason 0x88), as a RabbitMQ node answers while its MQTT plugin starts. A test frees the
/// port with `close()` and starts a real broker on it, to see a client wait through the refusals.
public final class UnavailableBroker: Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    private let listener: Int32
    private let refusals = Mutex(Refusals())

    private struct Refusals {
        var count = 0
        var nextID = 0
        var waiters: [Int: (count: Int, continuation: CheckedContinuation<Void, any Error>)] = [:]
    }

    /// Listens on a free port (SO_REUSEADDR, so a broker can bind it once this is closed).
    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXFailure("socket") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        do {
            port = try FreePort.bindLoopback(fd)
            guard listen(fd, 16) == 0 else { throw POSIXFailure("listen on 127.0.0.1:\(port)") }
        } catch {
            Glibc.close(fd)
            throw error
        }
        listener = fd
        let thread = Thread { [self] in serve() }
        thread.name = "unavailable-broker-\(port)"
        thread.start()
    }

    /// How many CONNECTs it has refused.
    public var refusedCount: Int { refusals.withLock { $0.count } }

    /// Returns once `count` CONNECTs have been refused; throws after `timeout`.
    public func waitForRefusals(_ count: Int, timeout: Duration = .seconds(20)) async throws {
        let id = refusals.withLock { refusals in
            refusals.nextID += 1
            return refusals.nextID
        }
        let port = port
        let timer = Task { [self] in
            try await Task.sleep(for: timeout)
            let waiter = self.refusals.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.continuation.resume(
                throwing: TimeoutError(what: "\(count) refusals on port \(port)", duration: timeout))
        }
        defer { timer.cancel() }
        try await withCheckedThrowingContinuation { continuation in
            refusals.withLock { refusals in
                if refusals.count >= count {
                    continuation.resume()
                } else {
                    refusals.waiters[id] = (count, continuation)
                }
            }
        }
    }

    /// Stops listening, so the port is free for a real broker; the accept loop ends.
    public func close() {
        // shutdown wakes the thread blocked in accept (EINVAL); the descriptor is closed there.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func serve() {
        while true {
            let client = accept4(listener, nil, nil, Int32(SOCK_CLOEXEC.rawValue))
            if client < 0 {
                if errno == EINTR { continue }
                break
            }
            let connection = TCPSocket(descriptor: client)
            var limit = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            if let packet = try? connection.readPacket(), packet.type == 0x10 {
                let level = MQTTHandshake.level(ofConnect: packet.body) ?? .v311
                try? connection.write(MQTTHandshake.connack(level: level, code: level == .v5 ? 0x88 : 3))
                refused()
            }
            connection.close()
        }
        Glibc.close(listener)
    }

    private func refused() {
        let ready = refusals.withLock { refusals in
            refusals.count += 1
            let count = refusals.count
            let ready = refusals.waiters.filter { $0.value.count <= count }
            for id in ready.keys { refusals.waiters[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in ready { continuation.resume() }
    }
}
