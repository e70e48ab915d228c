import Bridge

/// A command or gateway request a page sends over its WebSocket, checked before anything is published:
/// a known family and command, a well-formed id, a payload of at most 16 KiB. The payload itself is
/// the bridge's to judge, as for any MQTT client, and its reply says what was wrong.
struct PageRequest: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case command(family: DeviceFamily, id: String, name: String)
        case request(gateway: String, name: String)
    }

    /// The page's number for it; its reply carries the same.
    let id: Int
    let kind: Kind
    let payload: String

    /// The gateway requests the page offers: all of them (topics.md, Requests).
    static var requestNames: [String] { GatewayRequest.names }
    static let payloadLimit = 16 * 1024

    /// Decodes one text frame against the families' commands.
    init(frame: String, catalogue: [DeviceFamily: [CommandExample]]) throws(PageRequestError) {
        guard case .object(let object)? = JSONValue.parse(Array(frame.utf8)) else {
            throw PageRequestError(id: nil, "a frame must be a JSON object")
        }
        guard let id = object["id"]?.wholeNumber else { throw PageRequestError(id: nil, "'id' must be a whole number") }
        guard let payload = object["payload"]?.string else {
            throw PageRequestError(id: id, "'payload' must be a string")
        }
        guard payload.utf8.count <= Self.payloadLimit else {
            throw PageRequestError(id: id, "'payload' is larger than \(Self.payloadLimit / 1024) KiB")
        }
        self.id = id
        self.payload = payload
        switch object["type"]?.string {
        case "command":
            guard let device = object["device"]?.string, let slash = device.firstIndex(of: "/"),
                let family = catalogue.keys.first(where: { $0.rawValue == device[..<slash] })
            else {
                let names = catalogue.keys.map(\.rawValue).sorted().joined(separator: ", ")
                throw PageRequestError(id: id, "'device' must be <family>/<id> with a family of \(names)")
            }
            let deviceID = String(device[device.index(after: slash)...])
            guard TopicMap.isValidDeviceID(deviceID) else {
                throw PageRequestError(
                    id: id, "'\(deviceID)' is not a device id (lower-case letters, digits, '-', '_')")
            }
            let name = object["command"]?.string ?? ""
            guard let commands = catalogue[family], commands.contains(where: { $0.command == name }) else {
                let known = catalogue[family]?.map(\.command).joined(separator: ", ") ?? ""
                throw PageRequestError(
                    id: id, "no \(family.rawValue) command '\(name)'; known: \(known.isEmpty ? "none" : known)")
            }
            kind = .command(family: family, id: deviceID, name: name)
        case "request":
            guard let gateway = object["gateway"]?.string, TopicMap.isValidGatewayName(gateway) else {
                throw PageRequestError(id: id, "'gateway' must be a gateway name (letters, digits, '-', '_')")
            }
            let name = object["request"]?.string ?? ""
            guard Self.requestNames.contains(name) else {
                throw PageRequestError(
                    id: id, "no request '\(name)'; known: \(Self.requestNames.joined(separator: ", "))")
            }
            kind = .request(gateway: gateway, name: name)
        default:
            throw PageRequestError(id: id, "'type' must be command or request")
        }
    }

    /// Where it is published: `topics` gives the base topic (and device topics); a request goes to the
    /// gateway it names.
    func topic(in topics: TopicMap) -> String {
        switch kind {
        case .command(let family, let id, let name): topics.device(family, id, "cmd/\(name)")
        case .request(let gateway, let name): TopicMap(gateway: gateway, baseTopic: topics.baseTopic).request(name)
        }
    }

    /// Where the bridge answers when the message carries no response topic (MQTT 3.1.1).
    func plainReplyTopic(in topics: TopicMap) -> String {
        switch kind {
        case .command(let family, let id, _): topics.reply(family, id)
        case .request(let gateway, let name): TopicMap(gateway: gateway, baseTopic: topics.baseTopic).response(name)
        }
    }

    /// The name a reply repeats (`command` or `request`), to match it without a response topic.
    var name: String {
        switch kind {
        case .command(_, _, let name), .request(_, let name): name
        }
    }
}

/// A page frame refused before publishing; sent back as an `error` frame.
struct PageRequestError: Error, Equatable {
    let id: Int?
    let message: String
    init(id: Int?, _ message: String) {
        self.id = id
        self.message = message
    }
}
