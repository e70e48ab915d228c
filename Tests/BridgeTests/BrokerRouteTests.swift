import Locks
import MQTT
import Testing

@testable import Bridge

/// Features declare their own topics: a message goes to the first route that takes it, and gateway statuses
/// are subscribed after every other filter, so that nothing brings the gateway's own before the retained state.
struct BrokerRouteTests {
    @Test func aMessageGoesToTheFirstRouteThatTakesIt() {
        let taken = Mutex<[String]>([])
        func route(_ name: String, takes prefix: String) -> BrokerRoute {
            BrokerRoute(
                subscriptions: [],
                take: { message in
                    taken.withLock { $0.append(name) }
                    return message.topic.hasPrefix(prefix)
                })
        }
        let routes = [
            route("fleet", takes: "gatt2mqtt/"), route("commands", takes: "belt/"), route("leaves", takes: "a5/"),
        ]
        #expect(BrokerRoute.deliver(MQTTMessage(topic: "belt/a/cmd/mode", string: "app"), to: routes))
        #expect(taken.withLock { $0 } == ["fleet", "commands"])
        #expect(!BrokerRoute.deliver(MQTTMessage(topic: "cpr/a/peak", string: "5.0"), to: routes))
    }

    @Test func gatewayStatusesAreSubscribedAfterEveryOtherFilter() {
        let routes = [
            BrokerRoute(
                subscriptions: [
                    .init(filter: "gatt2mqtt/+/claim/+/+", qos: .atMostOnce),
                    .init(filter: "gatt2mqtt/+/status", qos: .atLeastOnce, afterRetainedState: true),
                ], take: { _ in false }),
            BrokerRoute(
                subscriptions: [
                    .init(filter: "belt/+/info", qos: .atLeastOnce),
                    .init(filter: "gatt2mqtt/gw/status", qos: .atLeastOnce, afterRetainedState: true),
                ], take: { _ in false }),
            BrokerRoute(subscriptions: [.init(filter: "belt/+/cmd/+", qos: .atLeastOnce)], take: { _ in false }),
        ]
        #expect(
            BrokerRoute.subscriptions(of: routes).map(\.filter) == [
                "gatt2mqtt/+/claim/+/+", "belt/+/info", "belt/+/cmd/+", "gatt2mqtt/+/status", "gatt2mqtt/gw/status",
            ])
    }
}
