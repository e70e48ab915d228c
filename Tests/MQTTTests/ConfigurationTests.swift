import Testing

@testable import MQTT

@Suite struct ConfigurationTests {
    @Test(arguments: [
        ("mqtt://127.0.0.1:1883", "127.0.0.1", 1883, false),
        ("mqtt://broker.local", "broker.local", 1883, false),
        ("mqtt://broker.local:18830/", "broker.local", 18830, false),
        ("MQTT://Host:1", "Host", 1, false),
        ("mqtts://broker.example", "broker.example", 8883, true),
        ("mqtts://broker.example:443", "broker.example", 443, true),
        ("mqtt://[::1]:1884", "::1", 1884, false),
        ("mqtt://[::1]", "::1", 1883, false),
    ])
    func parsesValidURLs(url: String, host: String, port: Int, tls: Bool) throws {
        let configuration = try MQTTConfiguration(url: url, clientID: "c")
        #expect(configuration.host == host)
        #expect(configuration.port == port)
        #expect((configuration.tls != nil) == tls)
        #expect(configuration.protocolVersion == .v5)
    }

    @Test(arguments: [
        ("127.0.0.1:1883", "expected mqtt://"),
        ("http://host:80", "unsupported scheme 'http'"),
        ("tcp://host:1883", "unsupported scheme 'tcp'"),
        ("mqtt://", "missing host"),
        ("mqtt://:1883", "missing host"),
        ("mqtt://host:0", "port must be"),
        ("mqtt://host:65536", "port must be"),
        ("mqtt://host:abc", "port must be"),
        ("mqtt://host:1883/path", "only HOST[:PORT]"),
        ("mqtt://host?x=1", "only HOST[:PORT]"),
        ("mqtt://::1:1883", "too many ':'"),
        ("mqtt://[::1", "unterminated IPv6"),
    ])
    func rejectsInvalidURLs(url: String, reason: String) {
        #expect {
            _ = try MQTTConfiguration(url: url)
        } throws: { error in
            guard case MQTTError.invalidURL(let reported, let why) = error else { return false }
            return reported == url && why.contains(reason)
        }
    }

    /// A password written into the URL is never shown by the error that refuses it (issue #56: the daemon printed
    /// `mqtt://ops:s3cret@broker` at start); whatever it holds, up to the last `@`, is `***`.
    @Test(arguments: [
        ("mqtt://ops:s3cret@broker:1883", "mqtt://***@broker:1883"),
        ("mqtts://ops:p@ss/w#rd?@broker", "mqtts://***@broker"),
        ("mqtt://s3cret@broker", "mqtt://***@broker"),
    ])
    func aPasswordInTheURLIsNeverShown(url: String, shown: String) {
        #expect {
            _ = try MQTTConfiguration(url: url)
        } throws: { error in
            guard case MQTTError.invalidURL(let reported, let why) = error else { return false }
            return reported == shown && why.contains("the user name and password are settings of their own")
                && !"\(error)".contains("s3cret") && !"\(error)".contains("p@ss")
        }
    }

    @Test func backoffDoublesUpToTheMaximum() {
        let backoff = MQTTBackoff(initial: .milliseconds(500), maximum: .seconds(30), jitter: 0.2)
        let withoutJitter = (1...10).map { backoff.delay(attempt: $0, random: 0) }
        #expect(
            withoutJitter == [
                .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30),
                .seconds(30), .seconds(30), .seconds(30),
            ])
        // Jitter only shortens, by at most the configured fraction.
        #expect(backoff.delay(attempt: 3, random: 0.999_999) == .milliseconds(1600))
        #expect(backoff.delay(attempt: 1_000, random: 0.5) == .seconds(27))
    }

    @Test func stringPayloadRoundTrips() {
        let message = MQTTMessage(topic: "t", string: "héllo")
        #expect(message.payload == Array("héllo".utf8))
        #expect(message.payloadString == "héllo")
        #expect(MQTTMessage(topic: "t", payload: [0xff, 0xfe]).payloadString == nil)
    }

    @Test func registryRemembersLastRetainedValueAndForgetsOnEmptyPayload() {
        var registry = SessionRegistry()
        registry.remember(MQTTMessage(topic: "a", string: "1", retain: true))
        registry.remember(MQTTMessage(topic: "a", string: "2", retain: true))
        registry.remember(MQTTMessage(topic: "b", string: "x", retain: true))
        registry.remember(MQTTMessage(topic: "c", string: "not retained"))
        #expect(registry.retainedMessages.map(\.payloadString) == ["2", "x"])
        registry.remember(MQTTMessage(topic: "a", payload: [], retain: true))
        #expect(registry.retainedMessages.map(\.topic) == ["b"])
    }

    /// A restore subscribes in the order the client did: the gateway's own status comes last, its retained copy
    /// the sign that every other subscription's retained messages have arrived.
    @Test func aRestoreSubscribesInTheOrderTheClientDid() {
        var registry = SessionRegistry()
        for filter in ["gatt2mqtt/gw/request/+", "belt/+/info", "a5/+/info", "gatt2mqtt/gw/status"] {
            registry.addSubscription(filter, qos: .atLeastOnce)
        }
        registry.addSubscription("belt/+/info", qos: .atMostOnce)
        #expect(
            registry.orderedSubscriptions.map(\.filter) == [
                "gatt2mqtt/gw/request/+", "belt/+/info", "a5/+/info", "gatt2mqtt/gw/status",
            ])
        #expect(registry.orderedSubscriptions[1].qos == .atMostOnce, "subscribed again: the new QoS, the first place")
        registry.removeSubscription("belt/+/info")
        registry.addSubscription("belt/+/info", qos: .atLeastOnce)
        #expect(
            registry.orderedSubscriptions.map(\.filter) == [
                "gatt2mqtt/gw/request/+", "a5/+/info", "gatt2mqtt/gw/status", "belt/+/info",
            ])
    }

    /// A fleet gateway's device state waits after a reconnect: withheld, then published again or forgotten.
    @Test func aRestoreWithholdsWhatThePredicatePicksUntilItIsReleased() {
        var registry = SessionRegistry()
        registry.withholds = { $0.hasPrefix("belt/") }
        for topic in ["belt/a/owner", "belt/a/info", "belt/b/owner", "gatt2mqtt/gw/status"] {
            registry.remember(MQTTMessage(topic: topic, string: "x", retain: true))
        }
        #expect(registry.messagesToRestore().map(\.topic) == ["gatt2mqtt/gw/status"])
        #expect(registry.withheld == ["belt/a/owner", "belt/a/info", "belt/b/owner"])
        // Published anew while withheld: current again, not withheld.
        registry.remember(MQTTMessage(topic: "belt/b/owner", string: "y", retain: true))
        #expect(registry.withheld == ["belt/a/owner", "belt/a/info"])
        // Still this gateway's: published again; another's: forgotten, never to be replayed.
        #expect(registry.takeWithheld(under: "belt/a/", keep: true).map(\.topic) == ["belt/a/info", "belt/a/owner"])
        registry.remember(MQTTMessage(topic: "belt/c/owner", string: "z", retain: true))
        _ = registry.messagesToRestore()
        #expect(registry.takeWithheld(under: "belt/c/", keep: false).isEmpty)
        #expect(!registry.retainedMessages.contains { $0.topic == "belt/c/owner" })
        #expect(
            registry.withheld == ["belt/a/owner", "belt/a/info", "belt/b/owner"], "withheld again by the second restore"
        )
    }

    @Test func aConfigurationPrintedAnywhereHidesItsPassword() throws {
        var configuration = try MQTTConfiguration(url: "mqtts://broker.example:8883", clientID: "gw")
        configuration.username = "gatt2mqtt"
        configuration.password = "s3cret"
        struct Holder { var settings: MQTTConfiguration }
        // Printed by reflection inside another value, as ServiceLifecycle prints a service.
        for text in ["\(configuration)", String(reflecting: configuration), "\(Holder(settings: configuration))"] {
            #expect(!text.contains("s3cret"), "\(text)")
            #expect(text.contains("mqtts://broker.example:8883") && text.contains("password set"), "\(text)")
        }
    }
}
