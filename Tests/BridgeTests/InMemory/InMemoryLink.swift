import BlueZ

@_spi(Bench) @testable import Bridge

/// A device's link in memory, for driving a session without BlueZ: reads answer from a table, writes
/// are recorded (and may be answered with notifications, as a device acknowledges), and the test sends
/// notifications on any characteristic the session subscribed to. A device may greet a subscription at once (the
/// Activ5 sends `TC5k` when 5A01 is subscribed): the greeting arrives before the subscription call returns. A subscription's lane takes what it
/// wants first, as `NotificationRouter` gives values to a lane on the D-Bus thread; the rest go to the stream.
actor InMemoryLink: GATTLink {
    /// One GATT write the session made.
    struct Write: Equatable, Sendable {
        var characteristic: String
        var bytes: [UInt8]
    }

    nonisolated let device: BlueZDevice
    private let services: Set<String>
    private var values: [String: [UInt8]]
    private let answer: @Sendable (Write) -> [(characteristic: String, bytes: [UInt8])]
    private let greetings: [String: [UInt8]]
    private var subscribers: [String: (lane: NotificationLane?, continuation: AsyncStream<[UInt8]>.Continuation)] = [:]
    private var subscriptionWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    private(set) var writes: [Write] = []
    private var writeWaiters: [(from: Int, write: Write, continuation: CheckedContinuation<Void, Never>)] = []
    private(set) var isConnected = false
    /// How long each connection attempt was given.
    private(set) var connectTimeouts: [Duration] = []
    /// False while the device is out of range: connecting fails, as BlueZ's Connect does then.
    private(set) var isReachable = true
    /// Characteristics BlueZ's copy of the device's services lacks (a stale copy): every access to one fails as
    /// `DeviceLink`'s does, and the first of a connection is its `missedCharacteristic()`.
    private var lacking: Set<String> = []
    private var missed: String?
    /// Runs in `forgetServices()`: the test removes the device as BlueZ would (`InMemoryCentral.removeDevice`).
    private var whileForgetting: (@Sendable () async -> Void)?
    private(set) var forgotten = 0

    /// `values` answers reads by characteristic; `answer` gives the notifications a write causes; `greetings` the one
    /// a subscription causes, by characteristic.
    init(
        device: BlueZDevice, services: Set<String>, values: [String: [UInt8]],
        answer: @escaping @Sendable (Write) -> [(characteristic: String, bytes: [UInt8])] = { _ in [] },
        greetings: [String: [UInt8]] = [:]
    ) {
        self.device = device
        self.services = services
        self.values = values
        self.answer = answer
        self.greetings = greetings
    }

    func connect(timeout: Duration) async throws {
        connectTimeouts.append(timeout)
        guard isReachable else { throw CommandError(.notConnected, "the device is out of range") }
        isConnected = true
        missed = nil
    }

    /// BlueZ's copy of the device's services lacks `characteristics` from now on; `whileForgetting` runs when the
    /// gateway removes the device.
    func setLacking(_ characteristics: Set<String>, whileForgetting: (@Sendable () async -> Void)? = nil) {
        lacking = characteristics
        self.whileForgetting = whileForgetting
    }

    private func lookUp(_ characteristic: String) throws {
        guard lacking.contains(characteristic) else { return }
        missed = missed ?? characteristic
        throw CommandError(.gattError, "the device has no characteristic \(characteristic)")
    }

    func missedCharacteristic() -> String? { missed }

    func forgetServices() async {
        forgotten += 1
        await whileForgetting?()
    }

    /// The device goes out of range (its link, if any, drops through `InMemoryCentral.dropLink`) or comes back.
    func setReachable(_ reachable: Bool) { isReachable = reachable }

    /// What reads of `characteristic` answer from now on.
    func setValue(_ bytes: [UInt8], of characteristic: String) { values[characteristic] = bytes }

    /// Runs inside `disconnect()`, before it returns: BlueZ reports a link going down (`Connected` false) before
    /// its `Disconnect` call answers.
    private var whileDisconnecting: (@Sendable () async -> Void)?

    func onDisconnect(_ body: @escaping @Sendable () async -> Void) { whileDisconnecting = body }

    func disconnect() async {
        isConnected = false
        for subscriber in subscribers.values { subscriber.continuation.finish() }
        subscribers = [:]
        await whileDisconnecting?()
    }

    func reset() {}

    func serviceUUIDs() -> Set<String> { services }

    func characteristicUUIDs() -> [String] { Array(values.keys) }

    func notifications(of characteristic: String, in service: String?, lane: NotificationLane?) throws -> AsyncStream<
        [UInt8]
    > {
        try lookUp(characteristic)
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream()
        subscribers[characteristic] = (lane, continuation)
        for waiter in subscriptionWaiters.removeValue(forKey: characteristic) ?? [] { waiter.resume() }
        if let greeting = greetings[characteristic] { deliver(greeting, on: characteristic) }
        return stream
    }

    func stopNotifications(of characteristic: String, in service: String?) {
        subscribers.removeValue(forKey: characteristic)?.continuation.finish()
    }

    func read(_ characteristic: String, in service: String?) throws -> [UInt8] {
        try lookUp(characteristic)
        guard let value = values[characteristic] else {
            throw CommandError(.gattError, "no characteristic \(characteristic)")
        }
        return value
    }

    func write(_ bytes: [UInt8], to characteristic: String, in service: String?, type: GattWriteType) throws {
        try lookUp(characteristic)
        let write = Write(characteristic: characteristic, bytes: bytes)
        writes.append(write)
        let count = writes.count
        writeWaiters.removeAll { waiter in
            guard waiter.write == write, count > waiter.from else { return false }
            waiter.continuation.resume()
            return true
        }
        for notification in answer(write) { deliver(notification.bytes, on: notification.characteristic) }
    }

    /// Returns once `write` is among the writes after the first `from`: a test waits for a write the gateway makes
    /// on its own, after another event, instead of checking at once.
    func waitForWrite(_ write: Write, after from: Int) async {
        guard !writes.dropFirst(from).contains(write) else { return }
        await withCheckedContinuation { writeWaiters.append((from, write, $0)) }
    }

    func current() -> BlueZDevice? { device }

    func batteryPercentage() -> UInt8? { nil }

    func pairAndTrust() {}

    /// The device notifies `bytes` on `characteristic` (once the session has subscribed to it).
    func notify(_ characteristic: String, _ bytes: [UInt8]) async {
        if subscribers[characteristic] == nil {
            await withCheckedContinuation { subscriptionWaiters[characteristic, default: []].append($0) }
        }
        deliver(bytes, on: characteristic)
    }

    private func deliver(_ bytes: [UInt8], on characteristic: String) {
        guard let subscriber = subscribers[characteristic] else { return }
        if subscriber.lane?(bytes) == true { return }
        subscriber.continuation.yield(bytes)
    }
}
