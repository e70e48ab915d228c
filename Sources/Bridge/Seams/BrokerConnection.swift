import MQTT
import WakePipe

/// What the gateway needs of its broker: the seam between the gateway and libmosquitto. `MQTTClient` is
/// the real one; a gateway under test runs on an in-memory broker, as a session runs on an in-memory
/// `GATTLink`.
public protocol BrokerConnection: MessageSink {
    /// Starts connecting (and reconnecting), on `host`'s thread when one is given.
    func start(host: (any DescriptorHost)?)
    /// Returns once connected; throws at the timeout or for a refusal that retrying will not heal.
    func connected(timeout: Duration) async throws
    /// Ends the session cleanly (no will), once what was published has left.
    func stop() async
    func subscribe(_ filter: String, qos: MQTTQoS) throws
    /// Stops the subscription to `filter` (and its restoring after a reconnect).
    func unsubscribe(_ filter: String) throws
    /// Every message the subscriptions take, for the one consumer.
    var messages: MQTTMessages { get }
    var isConnected: Bool { get }
    var statistics: MQTTStatistics { get }
    /// After a reconnect, holds back the retained messages whose topic `predicate` takes until released.
    func withholdOnRestore(_ predicate: @escaping @Sendable (String) -> Bool)
    func hasWithheld(under prefix: String) -> Bool
    func releaseWithheld(under prefix: String, republish: Bool)
}

extension MQTTClient: BrokerConnection {}
