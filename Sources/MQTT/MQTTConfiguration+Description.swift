/// A configuration printed anywhere (a log line, a value that holds it printed by reflection) never shows the
/// password: only whether one is set.
extension MQTTConfiguration: CustomStringConvertible {
    public var description: String {
        let scheme = tls == nil ? "mqtt" : "mqtts"
        let user = username.map { " user \($0)" } ?? ""
        let password = password == nil ? "" : " password set"
        return
            "MQTTConfiguration(\(scheme)://\(host):\(port), client \(clientID), \(protocolVersion)\(user)\(password))"
    }
}
