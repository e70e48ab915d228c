import BlueZ
import Logging
import Peripherals

/// One belt, from connection to disconnection and back: connects, runs the handshake of
/// belt.md §2.5, acknowledges keep-alives, publishes telemetry and executes commands one at a time.
/// After a loss it reconnects with jittered exponential backoff until it is stopped.
actor BeltSession {
    let device: BlueZDevice
    let id: String
    private let bluez: BlueZClient
    private let publisher: BrokerPublisher
    private let logger: Logger
    private var telemetry: BeltTelemetry
    private var state = ConnectionState.disconnected
    private var characteristics: [String: String] = [:]  // UUID → object path
    private var streamTasks: [Task<Void, Never>] = []
    private var acknowledgements: [Int: (prefix: [UInt8], continuation: CheckedContinuation<AcknowledgementOutcome, Never>)] = [:]
    private var nextAcknowledgement = 0
    private var linkLost: CheckedContinuation<Void, Never>?
    private var handshake = BeltHandshakeProgress()
    /// Malformed notifications received (counted for the health topic of a later issue, logged now).
    private(set) var decodeErrors = 0

    init(device: BlueZDevice, bluez: BlueZClient, publisher: BrokerPublisher, logger: Logger) {
        self.device = device
        id = DeviceID.from(address: device.address)
        self.bluez = bluez
        self.publisher = publisher
        var logger = logger
        logger[metadataKey: "device"] = "\(device.address)"
        logger[metadataKey: "family"] = "belt"
        self.logger = logger
        telemetry = BeltTelemetry(id: id, topics: publisher.topics)
    }

    var isConnected: Bool { state == .connected }

    // MARK: Lifecycle

    /// Keeps the belt connected until the task is cancelled.
    func run() async {
        var attempt = 0
        while !Task.isCancelled {
            do {
                try await connectAndHandshake()
                attempt = 0
                await withCheckedContinuation { linkLost = $0 }
                logger.info("belt disconnected")
            } catch {
                logger.warning("belt connection failed: \(error)")
            }
            tearDown()
            guard !Task.isCancelled else { break }
            attempt += 1
            let delay = Self.backoff(attempt: attempt)
            logger.info("reconnecting", metadata: ["attempt": "\(attempt)", "delay": "\(delay)"])
            try? await Task.sleep(for: delay)
        }
        tearDown()
    }

    /// 0.5 s doubling to 30 s, shortened by up to 20 % at random so a fleet does not retry in step.
    static func backoff(attempt: Int) -> Duration {
        let base = min(30.0, 0.5 * Double(1 << min(attempt - 1, 10)))
        return .milliseconds(Int(base * Double.random(in: 0.8...1.0) * 1000))
    }

    /// The link went down (BlueZ says so, or BlueZ itself went away).
    func linkDidDrop() {
        linkLost?.resume()
        linkLost = nil
    }

    /// Disconnects at shutdown.
    func shutDown() async {
        if state != .disconnected { try? await bluez.disconnect(devicePath: device.path) }
        linkDidDrop()
        tearDown()
    }

    private func setState(_ newState: ConnectionState) {
        guard newState != state else { return }
        state = newState
        publisher.publish(.state(publisher.topics.device(.belt, id, "connection"), newState.rawValue))
    }

    private func tearDown() {
        streamTasks.forEach { $0.cancel() }
        streamTasks = []
        for (_, waiter) in acknowledgements { waiter.continuation.resume(returning: .timedOut) }
        acknowledgements = [:]
        characteristics = [:]
        telemetry.reset()
        handshake = BeltHandshakeProgress()
        setState(.disconnected)
    }

    private func connectAndHandshake() async throws {
        setState(.connecting)
        try await bluez.connect(devicePath: device.path, timeout: .seconds(10))
        setState(.handshake)
        for step in BeltHandshake.steps {
            try await perform(step)
        }
        guard handshake.isComplete else {
            throw CommandError(.timeout, "handshake incomplete, missing \(handshake.missing.joined(separator: ", "))")
        }
        setState(.connected)
        logger.info("belt connected", metadata: ["firmware": "\(handshake.firmware?.version ?? 0)"])
    }

    private func perform(_ step: BeltHandshakeStep) async throws {
        let path = try await characteristicPath(step.characteristicUUID)
        switch step {
        case .subscribe(let uuid):
            let stream = try await bluez.notifications(characteristicPath: path, devicePath: device.path)
            streamTasks.append(Task { [weak self] in
                for await bytes in stream { await self?.received(bytes, from: uuid) }
            })
        case .request(let command, let prefix):
            let answered = try await write(command, expecting: prefix)
            // Heading offset and accuracy state are optional (iOS tolerates their failure); the rest is not.
            if !answered { logger.warning("no answer to \(command) during handshake") }
        case .readFirmware:
            let bytes = try await bluez.read(characteristicPath: path, devicePath: device.path)
            received(bytes, from: BeltGATT.Characteristic.firmwareInfo)
        }
    }

    private func characteristicPath(_ uuid: String) async throws -> String {
        if let path = characteristics[uuid] { return path }
        guard let description = BeltGATT.characteristic(uuid),
            let path = await bluez.characteristicPath(device: device.path, service: description.service, characteristic: uuid)
        else { throw CommandError(.gattError, "the belt has no characteristic \(uuid)") }
        characteristics[uuid] = path
        return path
    }

    // MARK: Notifications

    private func received(_ bytes: [UInt8], from uuid: String) {
        let notification: BeltNotification
        do {
            notification = try BeltNotification.decode(characteristic: uuid, bytes: bytes)
        } catch {
            decodeErrors += 1
            logger.warning("malformed notification", metadata: ["characteristic": "\(uuid)", "bytes": "\(bytes.hex)", "error": "\(error)"])
            return
        }
        handshake.record(notification)
        for (key, waiter) in acknowledgements where notification.encoded().starts(with: waiter.prefix) {
            acknowledgements.removeValue(forKey: key)
            waiter.continuation.resume(returning: .answered)
        }
        if case .keepAlive = notification { acknowledgeKeepAlive() }
        for publication in telemetry.publications(for: notification) { publisher.publish(publication) }
    }

    /// Every client answers a keep-alive at once (belt.md §3.5); the write must not wait behind the caller.
    private func acknowledgeKeepAlive() {
        Task {
            do {
                _ = try await write(.keepAliveAck, expecting: nil)
            } catch {
                logger.warning("keep-alive not acknowledged: \(error)")
            }
        }
    }

    // MARK: Commands

    /// Writes `command`; with `prefix`, waits up to 1 s (pybelt's timeout) for the FE06 answer
    /// starting with it and returns whether it came.
    private func write(_ command: BeltCommand, expecting prefix: [UInt8]?) async throws -> Bool {
        let path = try await characteristicPath(command.characteristicUUID)
        let bytes = command.encoded()
        guard let prefix else {
            try await bluez.write(bytes, characteristicPath: path, devicePath: device.path, type: .request)
            return true
        }
        let key = nextAcknowledgement
        nextAcknowledgement += 1
        let timer = Task { [weak self] in
            try await Task.sleep(for: .seconds(BeltHandshake.answerTimeoutSeconds))
            await self?.finishAcknowledgement(key, .timedOut)
        }
        defer { timer.cancel() }
        // The waiter is registered before the write goes out, so an answer cannot slip past it.
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<AcknowledgementOutcome, Never>) in
            acknowledgements[key] = (prefix, continuation)
            Task { [bluez, device] in
                do {
                    try await bluez.write(bytes, characteristicPath: path, devicePath: device.path, type: .request)
                } catch {
                    self.finishAcknowledgement(key, .failed(error))
                }
            }
        }
        switch outcome {
        case .answered: return true
        case .timedOut: return false
        case .failed(let error): throw error
        }
    }

    private func finishAcknowledgement(_ key: Int, _ outcome: AcknowledgementOutcome) {
        acknowledgements.removeValue(forKey: key)?.continuation.resume(returning: outcome)
    }

    /// Executes a parsed command; throws the error to reply with.
    func execute(_ command: BeltCommand) async throws(CommandError) {
        guard state == .connected else { throw CommandError(.notConnected, "belt \(id) is \(state.rawValue)") }
        do {
            switch command {
            case .changeMode(let mode):
                // The belt confirms with FE06 `01 01 <mode>`; the retained mode follows from that notification.
                guard try await write(command, expecting: [0x01, 0x01, mode.rawValue]) else {
                    throw CommandError(.timeout, "the belt did not confirm mode \(mode.name)")
                }
            default:
                _ = try await write(command, expecting: nil)
            }
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.gattError, "\(error)")
        }
    }
}

/// How a write that expects an answer ended.
private enum AcknowledgementOutcome: Sendable {
    case answered
    case timedOut
    case failed(any Error)
}

extension [UInt8] {
    var hex: String { map { String($0, radix: 16).leftPadded(to: 2) }.joined() }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
