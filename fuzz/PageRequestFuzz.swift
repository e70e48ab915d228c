// libFuzzer target: what the live page's server does with a browser's request before anything reaches
// the broker: HostGuard.isAllowed on the Host header of every request, AccessGuard.isAllowed on the
// request target (parsed by Hummingbird's URI, `?token=`) and the Authorization header,
// LivePageServer.isSameOrigin on the Origin and Host headers of the WebSocket upgrade, and
// PageRequest(frame:catalogue:) on each WebSocket text frame. They are internal, so scripts/fuzz compiles
// this file into the WebUI module with its sources.
//
// Input: byte 0 modulo 4 picks the check; for the access check, byte 0 / 4 modulo 4 the credentials
// configured (none, basic, token, both). The rest is the frame; or the request target, a line feed and
// the Authorization header (none without the line feed); or the Origin, a line feed and the Host header;
// or the Host header (none when empty).
// Checks: never traps; a frame is accepted exactly when the rules written out below (from the JSON, with
// names compared as bytes) accept it, as the same command or request with the same id and payload, and
// then goes to a topic without wildcards or empty levels that the bridge parses back to it, its reply
// topic likewise; a refused frame carries the frame's id when it has one, and its error frame (like the
// reply frame of an accepted one) is JSON that reads back to what was sent; access is granted exactly
// when no credentials are configured or the given ones match byte for byte, and the constant-time
// comparison agrees with comparing bytes; for ASCII headers (what browsers send), the Origin is the same
// exactly when it is `http://` or `https://` followed by the Host header; a Host that is a DNS name
// (what a rebinding attacker's page sends) is served exactly when, without port, trailing dot and case,
// it is `localhost`, the listen host, a configured name or an IPv4 address.
import Bridge
import Hummingbird
import HummingbirdCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The daemon's catalogue comes from the families' command parsers, which Bridge keeps internal; the
/// same names, copied from there (the payloads do not matter here).
private let catalogue: [DeviceFamily: [CommandExample]] = [
    .belt: [
        "mode", "vibrate", "channel", "pulse", "stop", "signal", "intensity", "compass_accuracy_signal",
        "heading_offset", "orientation", "navigation", "notify",
    ].map { CommandExample(command: $0, payload: "{}") },
    .a5: ["start", "stop", "tare", "imu", "sample_period", "evergreen", "stream"].map {
        CommandExample(command: $0, payload: "{}")
    },
    .cpr: ["ready", "call", "practice", "evaluate", "range", "name", "reset", "power_off", "mode"].map {
        CommandExample(command: $0, payload: "{}")
    },
    .grip: [],
]

private typealias Guard = AccessGuard<BasicRequestContext>
private typealias Hosts = HostGuard<BasicRequestContext>

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = input.first else { return 0 }
    let rest = Array(input.dropFirst())
    switch selector % 4 {
    case 0: checkFrame(rest)
    case 1: checkAccess(rest, credentials: selector / 4 % 4)
    case 2: checkOrigin(rest)
    default: checkHost(rest)
    }
    return 0
}

// MARK: WebSocket frames

private func checkFrame(_ bytes: [UInt8]) {
    let frame = String(decoding: bytes, as: UTF8.self)
    let object: [String: JSONValue]? =
        if case .object(let members)? = JSONValue.parse(Array(frame.utf8)) { members } else { nil }
    let expectation = expected(object)
    let request: PageRequest
    do {
        request = try PageRequest(frame: frame, catalogue: catalogue)
    } catch {
        guard expectation == nil else {
            fatalError("\(frame.debugDescription) refused (\(error.message)), expected \(expectation!)")
        }
        let id = object?["id"]?.wholeNumber
        guard error.id == id, !error.message.isEmpty else {
            fatalError("\(frame.debugDescription) refused as \(error)")
        }
        // The page reads the error frame: it must say what was refused, for which id.
        guard
            case .object(let answer)? = JSONValue.parse(
                Array(LiveFrame.error(id: error.id, message: error.message).utf8)),
            answer["type"] == .string("error"),
            answer["message"]?.string.map({ Array($0.utf8) }) == Array(error.message.utf8),
            answer["id"]?.wholeNumber == error.id
        else { fatalError("the error frame for \(error) does not read back") }
        return
    }
    guard let expectation, request.kind == expectation.kind, request.id == expectation.id,
        Array(request.payload.utf8) == Array(expectation.payload.utf8)
    else { fatalError("\(frame.debugDescription) accepted as \(request), expected \(String(describing: expectation))") }

    for base in ["", "site-a"] {
        let topics = TopicMap(gateway: "page", baseTopic: base)
        let topic = request.topic(in: topics)
        let replyTopic = request.plainReplyTopic(in: topics)
        checkPublishable(topic, for: frame)
        checkPublishable(replyTopic, for: frame)
        switch request.kind {
        case .command(let family, let id, let name):
            guard let parsed = topics.parseCommand(topic), parsed == (family, id, name),
                let reply = topics.parseLeaf(replyTopic), reply == (family, id, "reply"), request.name == name
            else { fatalError("\(request) goes to \(topic), answered on \(replyTopic)") }
        case .request(let gateway, let name):
            let gatewayTopics = TopicMap(gateway: gateway, baseTopic: base)
            guard gatewayTopics.parseRequest(topic) == name, replyTopic == gatewayTopics.response(name),
                request.name == name
            else { fatalError("\(request) goes to \(topic), answered on \(replyTopic)") }
        }
        // The reply frame carries the page's id back with whatever the bridge answered.
        guard
            case .object(let answer)? = JSONValue.parse(
                Array(LiveFrame.reply(id: request.id, topic: topic, payload: request.payload).utf8)),
            answer["type"] == .string("reply"), answer["id"]?.wholeNumber == request.id,
            answer["topic"]?.string.map({ Array($0.utf8) }) == Array(topic.utf8),
            answer["payload"]?.string.map({ Array($0.utf8) }) == Array(request.payload.utf8)
        else { fatalError("the reply frame for \(request) does not read back") }
    }
}

/// What a frame must become by the rules of PageRequest (its documentation and topics.md), with every
/// name compared as bytes; nil when it must be refused.
private func expected(_ object: [String: JSONValue]?) -> (kind: PageRequest.Kind, id: Int, payload: String)? {
    guard let object, let id = object["id"]?.wholeNumber, let payload = object["payload"]?.string,
        payload.utf8.count <= 16 * 1024
    else { return nil }
    func named(_ name: String, in names: [String]) -> String? {
        names.first { Array($0.utf8) == Array(name.utf8) }
    }
    switch object["type"]?.string.map({ Array($0.utf8) }) {
    case Array("command".utf8):
        guard let device = object["device"]?.string.map({ Array($0.utf8) }),
            let slash = device.firstIndex(of: UInt8(ascii: "/")),
            let family = DeviceFamily.allCases.first(where: { Array($0.rawValue.utf8) == Array(device[..<slash]) }),
            let commands = catalogue[family]
        else { return nil }
        let deviceID = String(decoding: device[(slash + 1)...], as: UTF8.self)
        guard TopicMap.isValidDeviceID(deviceID),
            let name = named(object["command"]?.string ?? "", in: commands.map(\.command))
        else { return nil }
        return (.command(family: family, id: deviceID, name: name), id, payload)
    case Array("request".utf8):
        guard let gateway = object["gateway"]?.string, TopicMap.isValidGatewayName(gateway),
            let name = named(object["request"]?.string ?? "", in: GatewayRequest.names)
        else { return nil }
        return (.request(gateway: gateway, name: name), id, payload)
    default:
        return nil
    }
}

/// A topic the broker takes in a PUBLISH: no wildcard, no NUL, no empty level, not a `$` topic.
private func checkPublishable(_ topic: String, for frame: String) {
    let bytes = Array(topic.utf8)
    guard bytes.first != UInt8(ascii: "$"),
        !bytes.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") || $0 == 0 }),
        bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty })
    else { fatalError("\(frame.debugDescription) is published on \(topic.debugDescription)") }
}

// MARK: Access

private func checkAccess(_ bytes: [UInt8], credentials: UInt8) {
    let (target, authorization) = split(bytes)
    var options: HTTPOptions
    do {
        options = try HTTPOptions(listen: "127.0.0.1:8080")
    } catch {
        fatalError("\(error)")
    }
    if credentials & 1 != 0 {
        options.username = "ops"
        options.password = "s3cret"
    }
    if credentials & 2 != 0 { options.token = "t0k3n" }
    let queryToken = URI(target).queryParameters.get("token")
    let allowed = Guard.isAllowed(authorization: authorization, queryToken: queryToken, options: options)

    let given = authorization.map { Array($0.utf8) }
    var expected = options.username == nil && options.token == nil
    if let token = options.token {
        expected =
            expected || queryToken.map({ Array($0.utf8) }) == Array(token.utf8)
            || given == Array("Bearer \(token)".utf8)
    }
    if let user = options.username, let password = options.password, let given, given.starts(with: "Basic ".utf8),
        let decoded = Data(base64Encoded: String(decoding: given.dropFirst(6), as: UTF8.self))
    {
        expected = expected || Array(decoded) == Array("\(user):\(password)".utf8)
    }
    guard allowed == expected else {
        let header = String(describing: authorization)
        fatalError("target \(target.debugDescription), authorization \(header): allowed \(allowed) with \(options)")
    }

    for (left, right) in [
        (queryToken ?? "", "t0k3n"), (authorization ?? "", "Bearer t0k3n"), (target, authorization ?? ""),
    ] {
        guard Guard.constantTimeEqual(left, right) == (Array(left.utf8) == Array(right.utf8)) else {
            fatalError("constantTimeEqual(\(left.debugDescription), \(right.debugDescription))")
        }
    }
}

// MARK: Host

private func checkHost(_ bytes: [UInt8]) {
    var options: HTTPOptions
    do {
        options = try HTTPOptions(listen: "gw-Kitchen:8080")
    } catch {
        fatalError("\(error)")
    }
    options.hosts = ["Gateway.local", "10.0.0.7"]
    let authority = bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    let allowed = Hosts.isAllowed(authority: authority, options: options)
    guard let authority else {
        guard !allowed else { fatalError("a request without Host is served") }
        return
    }
    // A name as a browser sends it: letters, digits, '-' and '.', perhaps a port.
    let (name, port) = split(Array(authority.utf8), at: UInt8(ascii: ":"))
    let isName =
        !name.isEmpty
        && name.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D
                || byte == 0x2E
        }
    guard isName, port?.allSatisfy({ (0x30...0x39).contains($0) }) ?? true else { return }
    var host = name.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
    if host.last == UInt8(ascii: ".") { host.removeLast() }
    let parts = host.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    let isAddress =
        parts.count == 4
        && parts.allSatisfy { part in
            (1...3).contains(part.count) && part.allSatisfy({ (0x30...0x39).contains($0) })
                && part.reduce(0, { $0 * 10 + Int($1 - 0x30) }) <= 255
        }
    let expected =
        isAddress || ["localhost", "gw-kitchen", "gateway.local", "10.0.0.7"].contains { Array($0.utf8) == host }
    guard allowed == expected else { fatalError("Host \(authority.debugDescription): served \(allowed)") }
}

/// The bytes before the last `separator`, and those after it (nil without one).
private func split(_ bytes: [UInt8], at separator: UInt8) -> ([UInt8], [UInt8]?) {
    guard let index = bytes.lastIndex(of: separator) else { return (bytes, nil) }
    return (Array(bytes[..<index]), Array(bytes[(index + 1)...]))
}

// MARK: Origin

private func checkOrigin(_ bytes: [UInt8]) {
    let (origin, host) = split(bytes)
    let same = LivePageServer.isSameOrigin(origin, host: host)
    guard let host else {
        guard !same else { fatalError("\(origin.debugDescription) is the same origin as no host") }
        return
    }
    // Browsers send both headers in ASCII; beyond it String's == compares canonically equivalent text.
    guard origin.utf8.allSatisfy({ $0 < 0x80 }), host.utf8.allSatisfy({ $0 < 0x80 }) else { return }
    let expected = [Array("http://\(host)".utf8), Array("https://\(host)".utf8)].contains(Array(origin.utf8))
    guard same == expected else {
        fatalError("Origin \(origin.debugDescription), Host \(host.debugDescription): same \(same)")
    }
}

/// The text before the first line feed, and the text after it (nil without one).
private func split(_ bytes: [UInt8]) -> (String, String?) {
    guard let newline = bytes.firstIndex(of: 0x0A) else { return (String(decoding: bytes, as: UTF8.self), nil) }
    return (
        String(decoding: bytes[..<newline], as: UTF8.self), String(decoding: bytes[(newline + 1)...], as: UTF8.self)
    )
}
