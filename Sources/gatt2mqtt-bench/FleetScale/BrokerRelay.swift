import Foundation
import TestSupport

/// A gateway's way to the broker through `socat`, so that the benchmark can kill its connection as SIGKILL kills
/// a gateway: SIGKILL to the relay closes both sockets at once, without an MQTT DISCONNECT, and the broker
/// publishes the gateway's will. The gateway's MQTT client, in this process, cannot be made to drop its socket
/// that way, and it could not reach the broker again afterwards either: the relay serves one connection only
/// (no `fork`), so nothing listens on its port once it is gone. Outside this process, its CPU is not the gateway's.
final class BrokerRelay: Sendable {
    let port: Int
    private let process: ManagedProcess

    /// A relay on a free port to `host`:`brokerPort`; returns once it listens.
    static func start(to brokerPort: Int, host: String = "127.0.0.1") async throws -> BrokerRelay {
        let port = try FreePort.allocate()
        let process = try ManagedProcess.launch(
            "socat", arguments: ["TCP-LISTEN:\(port),bind=127.0.0.1,reuseaddr", "TCP:\(host):\(brokerPort),nodelay"])
        let deadline = ContinuousClock.now + .seconds(10)
        // Not by connecting to it: the relay would spend its one connection on the probe.
        while !ListeningSockets.isListening(port: port) {
            guard ContinuousClock.now < deadline, process.isRunning else {
                throw BenchFailure("socat did not listen on port \(port): \(process.outputTail(5))")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return BrokerRelay(port: port, process: process)
    }

    private init(port: Int, process: ManagedProcess) {
        self.port = port
        self.process = process
    }

    var url: String { "mqtt://127.0.0.1:\(port)" }

    /// Cuts the connection: both sockets close without a DISCONNECT, as a SIGKILLed gateway's do.
    func cut() { process.send(SIGKILL) }

    func stop() async { _ = await process.terminate(grace: .seconds(1)) }
}

/// The IPv4 sockets of this machine in the LISTEN state, from /proc/net/tcp.
enum ListeningSockets {
    static func isListening(port: Int) -> Bool {
        listeningPorts(inProcNetTCP: readToEnd("/proc/net/tcp")).contains(port)
    }

    /// The whole of a /proc file, read until the end: its size is 0 to stat, and a read that trusts the size stops
    /// at the first page, which fifty relays' sockets fill.
    private static func readToEnd(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The local ports of the lines whose state is 0A (LISTEN): `sl local_address rem_address st …`, the address
    /// as `HEXIP:HEXPORT`.
    static func listeningPorts(inProcNetTCP table: String) -> Set<Int> {
        var ports = Set<Int>()
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count > 3, fields[3] == "0A", let port = fields[1].split(separator: ":").last,
                let number = Int(port, radix: 16)
            else { continue }
            ports.insert(number)
        }
        return ports
    }
}
