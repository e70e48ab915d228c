/// What the client must restore on every new connection: its subscriptions and its retained
/// state. A broker restarted without persistence has forgotten both, and the bridge's retained
/// device state must come back without the bridge noticing.
struct SessionRegistry {
    /// Topic filter → QoS, re-subscribed after every CONNACK.
    private(set) var subscriptions: [String: MQTTQoS] = [:]
    /// Topic → last retained message, re-published after every CONNACK.
    private(set) var retained: [String: MQTTMessage] = [:]

    /// Records a published message: a retained one replaces the topic's entry, and an empty
    /// retained payload (MQTT's way to delete a retained message) removes it.
    mutating func remember(_ message: MQTTMessage) {
        guard message.retain else { return }
        if message.payload.isEmpty {
            retained[message.topic] = nil
        } else {
            retained[message.topic] = message
        }
    }

    mutating func addSubscription(_ filter: String, qos: MQTTQoS) {
        subscriptions[filter] = qos
    }

    mutating func removeSubscription(_ filter: String) {
        subscriptions[filter] = nil
    }

    /// Retained messages in a stable order, so a replay is reproducible in logs and tests.
    var retainedMessages: [MQTTMessage] {
        retained.keys.sorted().compactMap { retained[$0] }
    }
}
