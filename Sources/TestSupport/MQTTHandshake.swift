import Foundation

/// The MQTT handshake on a raw socket, for readiness: a broker is ready for clients when it accepts a
/// CONNECT, not when it logs a line or its port takes TCP (a RabbitMQ node does both while its MQTT
/// plugin still answers "server unavailable").
public enum MQTTHandshake {
    /// The protocol level a CONNECT names: 4 is MQTT 3.1.1, 5 is MQTT 5.
    public enum Level: UInt8, Sendable {
        case v311 = 4
        case v5 = 5
    }

    /// CONNACK's code for success, in both levels.
    public static let accepted: UInt8 = 0

    /// Sends a CONNECT with a clean session to 127.0.0.1:`port` and returns the CONNACK's return code
    /// (3.1.1) or reason code (5); a DISCONNECT follows an accepted one. Throws when the connection fails,
    /// closes, or says nothing within `timeout`.
    public static func connackCode(
        port: Int, level: Level = .v311, clientID: String = "g2m-ready", timeout: Duration = .seconds(5)
    )
        throws -> UInt8
    {
        let socket = try TCPSocket.connect(port: port, timeout: timeout)
        defer { socket.close() }
        try socket.write(connect(level: level, clientID: clientID))
        let packet = try socket.readPacket()
        guard packet.type == 0x20, packet.body.count >= 2 else {
            throw POSIXFailure("CONNACK from 127.0.0.1:\(port) (got packet type \(packet.type))")
        }
        let code = packet.body[1]
        if code == accepted { try? socket.write([0xE0, 0x00]) }
        return code
    }

    /// A CONNECT packet: clean session, a keep-alive of 60 s, no will, no credentials.
    static func connect(level: Level, clientID: String) -> [UInt8] {
        var variable: [UInt8] = [0x00, 0x04] + Array("MQTT".utf8) + [level.rawValue, 0x02, 0x00, 60]
        if level == .v5 { variable.append(0x00) }  // no properties
        let id = Array(clientID.utf8)
        let body = variable + [UInt8(id.count >> 8), UInt8(id.count & 0xff)] + id
        return [0x10] + remainingLength(body.count) + body
    }

    /// A CONNACK refusing with `code`, in the form of `level`.
    static func connack(level: Level, code: UInt8) -> [UInt8] {
        level == .v5 ? [0x20, 0x03, 0x00, code, 0x00] : [0x20, 0x02, 0x00, code]
    }

    /// The protocol level a CONNECT's body names (after the protocol name), if it is one of ours.
    static func level(ofConnect body: [UInt8]) -> Level? {
        guard body.count >= 2 else { return nil }
        let nameLength = Int(body[0]) << 8 | Int(body[1])
        guard body.count > 2 + nameLength else { return nil }
        return Level(rawValue: body[2 + nameLength])
    }

    /// MQTT's variable-length integer.
    static func remainingLength(_ value: Int) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        repeat {
            var byte = UInt8(value % 128)
            value /= 128
            if value > 0 { byte |= 0x80 }
            bytes.append(byte)
        } while value > 0
        return bytes
    }
}

/// A blocking loopback TCP connection with a receive timeout, enough for one handshake.
struct TCPSocket {
    let descriptor: Int32

    static func connect(port: Int, timeout: Duration) throws -> TCPSocket {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXFailure("socket") }
        var limit = timeval(
            tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = FreePort.loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            let failure = POSIXFailure("connect 127.0.0.1:\(port)")
            Glibc.close(fd)
            throw failure
        }
        return TCPSocket(descriptor: fd)
    }

    func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { throw POSIXFailure("send") }
            sent += count
        }
    }

    /// Reads exactly `count` bytes.
    func read(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var received = 0
        while received < count {
            let got = bytes[received...].withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if got == 0 { throw POSIXFailure("recv: the peer closed the connection") }
            guard got > 0 else { throw POSIXFailure("recv") }
            received += got
        }
        return bytes
    }

    /// One MQTT packet: its type nibble (shifted back in place, e.g. 0x20 for CONNACK) and its body.
    func readPacket() throws -> (type: UInt8, body: [UInt8]) {
        let type = try read(1)[0] & 0xF0
        var length = 0
        var multiplier = 1
        for _ in 0..<4 {
            let byte = try read(1)[0]
            length += Int(byte & 0x7F) * multiplier
            multiplier *= 128
            if byte & 0x80 == 0 { break }
        }
        return (type, try read(length))
    }

    func close() { Glibc.close(descriptor) }
}
