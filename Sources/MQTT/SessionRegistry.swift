/// What the client must restore on every new connection: its subscriptions and its retained
/// state. A broker restarted without persistence has forgotten both, and the bridge's retained
/// device state must come back without the bridge noticing.
struct SessionRegistry {
    /// Topic filter → QoS, re-subscribed after every CONNACK.
    private(set) var subscriptions: [String: MQTTQoS] = [:]
    /// The filters in the order they were first subscribed to: a restore sends them in that order, because a
    /// client may rely on it (a subscription whose retained message marks the end of others' retained state).
    private(set) var subscriptionOrder: [String] = []
    /// Topic → last retained message, re-published after every CONNACK.
    private(set) var retained: [String: MQTTMessage] = [:]
    /// Which retained topics a restore keeps back rather than re-publishing (nil: none).
    var withholds: (@Sendable (String) -> Bool)?
    /// Retained topics a restore kept back, until the owner of the client says whether they are still its own.
    var withheld: Set<String> = []

    /// Records a published message: a retained one replaces the topic's entry, and an empty
    /// retained payload (MQTT's way to delete a retained message) removes it.
    mutating func remember(_ message: MQTTMessage) {
        guard message.retain else { return }
        // Published anew: current, so no longer held back.
        withheld.remove(message.topic)
        if message.payload.isEmpty {
            retained[message.topic] = nil
        } else {
            retained[message.topic] = message
        }
    }

    mutating func addSubscription(_ filter: String, qos: MQTTQoS) {
        if subscriptions.updateValue(qos, forKey: filter) == nil { subscriptionOrder.append(filter) }
    }

    mutating func removeSubscription(_ filter: String) {
        guard subscriptions.removeValue(forKey: filter) != nil else { return }
        subscriptionOrder.removeAll { $0 == filter }
    }

    /// Every subscription in the order it was made.
    var orderedSubscriptions: [(filter: String, qos: MQTTQoS)] {
        subscriptionOrder.compactMap { filter in subscriptions[filter].map { (filter, $0) } }
    }

    /// Retained messages in a stable order, so a replay is reproducible in logs and tests.
    var retainedMessages: [MQTTMessage] {
        retained.keys.sorted().compactMap { retained[$0] }
    }

    /// The retained messages a restore re-publishes; those it withholds are set aside in `withheld`.
    mutating func messagesToRestore() -> [MQTTMessage] {
        guard let withholds else { return retainedMessages }
        var restored: [MQTTMessage] = []
        for message in retainedMessages {
            if withholds(message.topic) { withheld.insert(message.topic) } else { restored.append(message) }
        }
        return restored
    }

    /// Ends the withholding of the topics under `prefix`: their messages to publish again, or (not `keep`) none,
    /// and they are forgotten.
    mutating func takeWithheld(under prefix: String, keep: Bool) -> [MQTTMessage] {
        let topics = withheld.filter { $0.hasPrefix(prefix) }
        withheld.subtract(topics)
        guard keep else {
            for topic in topics { retained[topic] = nil }
            return []
        }
        return topics.sorted().compactMap { retained[$0] }
    }
}
