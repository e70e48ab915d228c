import MQTT

/// What one feature of the gateway takes from the broker: the filters it subscribes to, and the messages
/// it handles. Each feature declares its own (`route`) and `Bridge.init` lists them; the receive path offers
/// every message to the routes in order until one takes it, and the broker session subscribes to every
/// route's filters.
struct BrokerRoute: Sendable {
    struct Subscription: Sendable, Equatable {
        var filter: String
        var qos: MQTTQoS
        /// Subscribed after every other filter: a gateway status. The gateway's own retained status is the
        /// sign that the retained state of an earlier run (every `info`) has arrived, so nothing may bring it
        /// before those.
        var afterRetainedState = false
    }

    let subscriptions: [Subscription]
    /// Handles a message; false leaves it to the next route.
    let take: @Sendable (MQTTMessage) -> Bool

    /// Every route's subscriptions in route order, those `afterRetainedState` after all the others.
    static func subscriptions(of routes: [BrokerRoute]) -> [Subscription] {
        let all = routes.flatMap(\.subscriptions)
        return all.filter { !$0.afterRetainedState } + all.filter(\.afterRetainedState)
    }

    /// Offers `message` to `routes` in order; false when none took it.
    static func deliver(_ message: MQTTMessage, to routes: [BrokerRoute]) -> Bool {
        routes.contains { $0.take(message) }
    }
}
