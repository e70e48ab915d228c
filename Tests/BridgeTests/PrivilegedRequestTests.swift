import Foundation
import MQTT
import Testing

@testable import Bridge

/// Safe when the broker is open (issue #56, item 4): without an ACL anyone could send `request/options` with
/// `auto_connect: all` (kept across restarts: adoption off for good) or `request/restart`. `requests.privileged`
/// decides whether the gateway takes them: by default (`auto`) only when it logs in to the broker; a gateway that
/// takes them while it reaches the broker without credentials says so at start and in its retained `info`.
@Suite(.timeLimit(.minutes(1))) struct PrivilegedRequestTests {
    private static let allowed = "00:11:22:33:44:55"
    private static let change = #"{"options":{"devices":{"allow":["00:11:22:33:44:56"]}}}"#

    /// Starts gateway `test` with `privileged`, logged in to the broker or not, with options it can keep.
    private func with(
        _ privileged: PrivilegedRequests, credentials: Bool, _ body: (InMemoryGateway) async throws -> Void
    ) async throws {
        var made = BridgeConfiguration(mqtt: .init(host: "in-memory"), adapters: ["hci0"], gateway: "test")
        made.autoConnect = .allowList([Self.allowed])
        try await InMemoryGateway.with(
            configure: {
                $0.autoConnect = .allowList([Self.allowed])
                $0.privilegedRequests = privileged
                if !credentials { $0.mqtt.password = nil }
            }, options: GatewayOptionsRequestTests.StandIn(base: made), body)
    }

    private func request(_ gateway: InMemoryGateway, _ name: String, _ payload: String) async throws -> String {
        let mark = gateway.probe.mark
        try gateway.publish("gatt2mqtt/test/request/\(name)", payload)
        return await gateway.probe.next(on: "gatt2mqtt/test/response/\(name)", after: mark).payloadString ?? ""
    }

    private func info(_ gateway: InMemoryGateway) async throws -> [String: Any] {
        let message = await gateway.probe.next(on: "gatt2mqtt/test/info")
        let object = try JSONSerialization.jsonObject(with: Data(message.payload))
        return try #require(object as? [String: Any])
    }

    /// The default on a broker that lets the gateway in without credentials: options and restart are refused
    /// (`not_permitted`), change nothing, and the answer names the setting; every other request is taken.
    @Test func onAnOpenBrokerTheDefaultRefusesOptionsAndRestart() async throws {
        try await with(.auto, credentials: false) { gateway in
            let options = try await request(gateway, "options", Self.change)
            #expect(
                options.hasPrefix(
                    #"{"error":{"code":"not_permitted","message":"options is a privileged request, which this gateway does not take from the broker (requests.privileged is auto, and this gateway reaches the broker without credentials)"#
                ), "\(options)")
            #expect(gateway.bridge.context.live.autoConnect == .allowList([Self.allowed]), "nothing changed")
            let restart = try await request(gateway, "restart", "{}")
            #expect(restart.contains(#""code":"not_permitted""#) && restart.contains(#""ok":false"#), "\(restart)")
            #expect(try await request(gateway, "devices", "{}").contains(#""ok":true"#))
            #expect(gateway.broker.retained("gatt2mqtt/test/status")?.payloadString == "online", "still running")
            let info = try await info(gateway)
            #expect(info["privileged_requests"] as? Bool == false)
            #expect(info["warnings"] == nil, "nothing to warn of: the requests are refused")
            #expect(!gateway.log.lines.contains { $0.hasPrefix("warning privileged requests") })
        }
    }

    /// Logged in (a password, or a client certificate), the default takes them: the broker's ACL decides.
    @Test func loggedInTheDefaultTakesThem() async throws {
        try await with(.auto, credentials: true) { gateway in
            #expect(try await request(gateway, "options", Self.change).contains(#""ok":true"#))
            #expect(gateway.bridge.context.live.autoConnect == .allowList(["00:11:22:33:44:56"]))
            let info = try await info(gateway)
            #expect(info["privileged_requests"] as? Bool == true)
        }
        var certificate = BridgeConfiguration(mqtt: .init(host: "b"), adapters: ["hci0"], gateway: "t")
        certificate.mqtt.tls = MQTTTLSConfiguration(certificateFile: "/c.pem", keyFile: "/k.pem")
        #expect(certificate.takesPrivilegedRequests)
        certificate.mqtt.tls = MQTTTLSConfiguration(caFile: "/ca.pem")
        certificate.mqtt.username = "a name is no login"
        #expect(!certificate.takesPrivilegedRequests)
    }

    /// Taken on an open broker because the setting says so: the gateway warns at start, once, and its retained
    /// `info` carries the warning for as long as it holds.
    @Test func takenWithoutCredentialsTheyAreWarnedOf() async throws {
        try await with(.on, credentials: false) { gateway in
            #expect(try await request(gateway, "options", Self.change).contains(#""ok":true"#))
            let warnings = gateway.log.lines.filter {
                $0.hasPrefix("warning privileged requests (options, rename, restore, restart)")
            }
            #expect(warnings.count == 1, "\(warnings)")
            let info = try await info(gateway)
            #expect(info["privileged_requests"] as? Bool == true)
            let said = try #require(info["warnings"] as? [String])
            #expect(said.count == 1 && said[0].contains("reaches the broker without credentials"), "\(said)")
            #expect(said[0].contains("requests.privileged: false"), "it says how to stop it")
        }
    }

    /// Switched off, they are refused however the gateway logs in; the answer says the setting is false.
    @Test func switchedOffTheyAreRefusedEvenLoggedIn() async throws {
        try await with(.off, credentials: true) { gateway in
            let restart = try await request(gateway, "restart", #"{"transaction":"r"}"#)
            #expect(
                restart.contains(#""code":"not_permitted""#) && restart.contains("(requests.privileged is false)")
                    && restart.hasSuffix(#""ok":false,"request":"restart","transaction":"r"}"#), "\(restart)")
            #expect(try await request(gateway, "devices", "{}").contains(#""ok":true"#), "the others are taken")
            let info = try await info(gateway)
            #expect(info["privileged_requests"] as? Bool == false)
            #expect(gateway.log.lines.contains { $0.contains("request refused") && $0.contains("not_permitted") })
        }
    }
}
