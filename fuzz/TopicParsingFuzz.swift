// libFuzzer target: a topic from the broker through the TopicMap parsers the receive path runs on every
// message (ReceivePath and the features' routes): parseClaim, parseGatewayStatus,
// parseFleetHeartbeat, parseRequest, parseCommand, parseInfo, parseLeaf and withoutBase; and the same
// text as a gateway name, device id or base topic through the validity predicates. TopicMap is public
// API, so scripts/fuzz links this file against the Bridge objects (and their dependencies).
//
// Input: byte 0 picks the map the topic arrives at: low nibble a gateway name, high nibble a base topic
// (indexes into `gateways` and `bases` below, modulo their counts); the rest is the topic.
// Checks: never traps; what a parser returns formats back into the same topic with the TopicMap
// builders, its levels non-empty and without a `/` byte (the broker splits levels at that byte, not at
// Swift's characters), names and ids valid, and one topic never parses as two kinds of message; a text
// the predicates accept as a gateway name, device id or base topic builds topics that parse back to it;
// a gateway name the bridge accepts is one the claim codec accepts; an accepted base topic has, in
// bytes, no wildcard, NUL, leading `$` or empty level; a topic isAllowedResponseTopic lets the gateway
// answer on has, in bytes, no wildcard, NUL or leading `$`, is not under the discovery prefix, and is
// no gatt2mqtt or device topic but a `reply`.
import Bridge
import Fleet

private let gateways = ["gw-a", "workshop", "Lab_2", String(repeating: "g", count: 64)]
private let bases = ["", "site-a", "a/b", "belt", "gatt2mqtt", "home/gatt2mqtt/x"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let selector = input.first else { return 0 }
    let base = bases[Int(selector >> 4) % bases.count]
    let topics = TopicMap(gateway: gateways[Int(selector & 0x0F) % gateways.count], baseTopic: base)
    guard TopicMap.isValidBaseTopic(base), TopicMap.isValidGatewayName(topics.gateway) else {
        fatalError("the table holds an invalid map: \(topics)")
    }
    let text = String(decoding: input.dropFirst(), as: UTF8.self)
    parse(text, at: topics)
    build(with: text, at: topics)
    return 0
}

/// Every parser on `topic`: each result must format back into `topic`.
private func parse(_ topic: String, at topics: TopicMap) {
    var kinds: [String] = []
    if let (gateway, family, id) = topics.parseClaim(topic) {
        kinds.append("claim")
        checkGateway(gateway, in: topic)
        guard TopicMap.isValidDeviceID(id) else {
            fatalError("\(topic.debugDescription): claim for device \(id.debugDescription)")
        }
        expect(TopicMap(gateway: gateway, baseTopic: topics.baseTopic).claim(family, id), is: topic)
    }
    if let gateway = topics.parseGatewayStatus(topic) {
        kinds.append("status")
        checkGateway(gateway, in: topic)
        expect(TopicMap(gateway: gateway, baseTopic: topics.baseTopic).status, is: topic)
    }
    if let gateway = topics.parseFleetHeartbeat(topic) {
        kinds.append("heartbeat")
        checkGateway(gateway, in: topic)
        expect(TopicMap(gateway: gateway, baseTopic: topics.baseTopic).fleetHeartbeat, is: topic)
    }
    if let name = topics.parseRequest(topic) {
        kinds.append("request")
        checkLevel(name, in: topic)
        expect(topics.request(name), is: topic)
    }
    if let (family, id, name) = topics.parseCommand(topic) {
        kinds.append("command")
        checkLevel(id, in: topic)
        checkLevel(name, in: topic)
        expect(topics.device(family, id, "cmd/\(name)"), is: topic)
    }
    if let (family, id, leaf) = topics.parseLeaf(topic) {
        kinds.append("leaf")
        checkLevel(id, in: topic)
        checkLevel(leaf, in: topic)
        expect(topics.device(family, id, leaf), is: topic)
    }
    // `info` is the one leaf the receive path reads before the others.
    if let (family, id) = topics.parseInfo(topic) {
        guard let leaf = topics.parseLeaf(topic), leaf == (family, id, "info") else {
            fatalError("\(topic.debugDescription) is info of \(family)/\(id) but not that leaf")
        }
    }
    // The receive path takes the first parser that matches: that must not depend on their order.
    guard kinds.count <= 1 else { fatalError("\(topic.debugDescription) parses as \(kinds)") }
    // A response topic some client named: the gateway answers there with its own credentials.
    if topics.isAllowedResponseTopic(topic, discoveryPrefix: "homeassistant") {
        checkResponseTopic(topic, at: topics)
    }
    if let rest = topics.withoutBase(topic) {
        expect((topics.baseTopic.isEmpty ? "" : topics.baseTopic + "/") + rest, is: topic)
    }
}

/// `text` as a gateway name, a device id and a base topic: whatever the predicates accept must build
/// topics that parse back to it.
private func build(with text: String, at topics: TopicMap) {
    if TopicMap.isValidGatewayName(text) {
        // The bridge refuses to start with a name the claim codec would refuse in its peers' claims.
        guard ClaimCodec.isValidGatewayName(text) else { fatalError("gateway \(text.debugDescription) cannot claim") }
        checkName(text)
        let other = TopicMap(gateway: text, baseTopic: topics.baseTopic)
        guard topics.parseGatewayStatus(other.status) == text, topics.parseFleetHeartbeat(other.fleetHeartbeat) == text,
            let claim = topics.parseClaim(other.claim(DeviceFamily.belt, "001122334451")),
            claim == (text, DeviceFamily.belt, "001122334451"),
            other.parseRequest(other.request("scan")) == "scan",
            topics.parseRequest(other.request("scan")) == nil || text == topics.gateway
        else { fatalError("gateway \(text.debugDescription) does not come back from its topics") }
    }
    if TopicMap.isValidDeviceID(text) {
        checkName(text)
        for family in DeviceFamily.allCases {
            guard let claim = topics.parseClaim(topics.claim(family, text)), claim == (topics.gateway, family, text),
                let command = topics.parseCommand(topics.device(family, text, "cmd/mode")),
                command == (family, text, "mode"),
                let info = topics.parseInfo(topics.device(family, text, "info")), info == (family, text),
                let leaf = topics.parseLeaf(topics.device(family, text, "heading")), leaf == (family, text, "heading")
            else { fatalError("device \(family)/\(text.debugDescription) does not come back from its topics") }
        }
    }
    if !text.isEmpty, TopicMap.isValidBaseTopic(text) {
        checkBase(text)
        let other = TopicMap(gateway: topics.gateway, baseTopic: text)
        guard other.parseGatewayStatus(other.status) == topics.gateway,
            other.withoutBase(other.status) == "gatt2mqtt/\(topics.gateway)/status",
            let claim = other.parseClaim(other.claim(DeviceFamily.a5, "ab")),
            claim == (topics.gateway, DeviceFamily.a5, "ab"),
            let command = other.parseCommand(other.device(DeviceFamily.cpr, "ab", "cmd/name")),
            command == (DeviceFamily.cpr, "ab", "name"),
            other.parseRequest(other.request("devices")) == "devices"
        else { fatalError("base topic \(text.debugDescription) does not come back from its topics") }
    }
}

private func checkGateway(_ gateway: String, in topic: String) {
    guard TopicMap.isValidGatewayName(gateway), ClaimCodec.isValidGatewayName(gateway) else {
        fatalError("\(topic.debugDescription) names gateway \(gateway.debugDescription)")
    }
}

/// One non-empty topic level. The broker splits levels at the byte `/`, whatever characters surround it,
/// so this looks at bytes, not at Swift's characters (where `/` and a combining mark are one).
private func checkLevel(_ level: String, in topic: String) {
    guard !level.isEmpty, !level.utf8.contains(UInt8(ascii: "/")) else {
        fatalError("\(topic.debugDescription) has level \(level.debugDescription)")
    }
}

/// A name or id that the predicates accept is one topic level that is safe in a filter too.
private func checkName(_ name: String) {
    guard !name.isEmpty,
        !name.utf8.contains(where: {
            $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") || $0 == 0
        })
    else { fatalError("accepted as a name: \(name.debugDescription)") }
}

/// What isValidBaseTopic promises, in the broker's terms (bytes): no wildcard, no NUL, no `$` in front,
/// no empty level.
private func checkBase(_ base: String) {
    let bytes = Array(base.utf8)
    guard bytes.first != UInt8(ascii: "$"),
        !bytes.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") || $0 == 0 }),
        bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty })
    else { fatalError("accepted as a base topic: \(base.debugDescription)") }
}

/// What isAllowedResponseTopic promises, in the broker's terms (bytes): a topic a publish may have, not a
/// `$` topic, not under the discovery prefix, and under gatt2mqtt's own topics only a `reply`.
private func checkResponseTopic(_ topic: String, at topics: TopicMap) {
    let bytes = Array(topic.utf8)
    let prefix = Array((topics.baseTopic.isEmpty ? "" : topics.baseTopic + "/").utf8)
    var isOwn = false
    if bytes.starts(with: prefix) {
        let levels = bytes.dropFirst(prefix.count).split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        let first = levels.first.map { Array($0) } ?? []
        isOwn =
            (first == Array("gatt2mqtt".utf8) || DeviceFamily.allCases.contains { Array($0.rawValue.utf8) == first })
            && levels.last.map({ Array($0) }) != Array("reply".utf8)
    }
    guard !bytes.isEmpty, bytes.first != UInt8(ascii: "$"),
        !bytes.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "#") || $0 == 0 }),
        !bytes.starts(with: "homeassistant/".utf8), !isOwn
    else { fatalError("answers on \(topic.debugDescription)") }
}

private func expect(_ built: String, is topic: String) {
    guard Array(built.utf8) == Array(topic.utf8) else {
        fatalError("\(topic.debugDescription) formats back as \(built.debugDescription)")
    }
}
