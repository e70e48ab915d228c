import BlueZ
import Logging

/// What a profile may do with its device, in a handshake or a command: read, write, bond, and publish by leaf. Every
/// publication goes through the engine's one path (`SessionCore.publish`, with the live-state ledger) and, for state,
/// through the leaves' record under the lane's lock, so a reducer and a handshake never say the same state twice.
final class ConnectedDevice<StreamState: Sendable>: Sendable {
    let core: SessionCore
    let lane: TelemetryLane<EngineState<StreamState>>

    init(core: SessionCore, lane: TelemetryLane<EngineState<StreamState>>) {
        self.core = core
        self.lane = lane
    }

    var id: String { core.id }
    var logger: Logger { core.logger }

    // MARK: The link

    func read(_ characteristic: String, in service: String) async throws -> [UInt8] {
        try await core.link.read(characteristic, in: service)
    }

    /// Writes `bytes`; a failure is the command's `gatt_error`.
    func write(_ bytes: [UInt8], to characteristic: String, in service: String, type: GattWriteType = .request)
        async throws(CommandError)
    {
        do {
            try await core.link.write(bytes, to: characteristic, in: service, type: type)
        } catch {
            throw CommandError(.gattError, "\(error)")
        }
    }

    /// The characteristics the device exports (after service discovery).
    func characteristics() async -> Set<String> { Set(await core.link.characteristicUUIDs()) }

    var isPaired: Bool { get async { await core.link.current()?.paired ?? false } }

    func pairAndTrust() async throws { try await core.link.pairAndTrust() }

    /// The device as BlueZ reports it now (its RSSI from the last advertisement, its advertised TX power).
    func current() async -> BlueZDevice? { await core.link.current() }

    /// Ends the link on purpose (a device told to switch itself off): not a loss, and not reconnected.
    func endLink() {
        core.loss.expectEnding()
        core.connection.spawn { [core] in
            await core.link.disconnect()
            core.loss.signal(.ended)
        }
    }

    /// The battery level bluetoothd's battery plugin keeps (`Battery1`), where it claims the Battery Service.
    func batteryPercentage() async -> UInt8? { await core.link.batteryPercentage() }

    // MARK: Publishing

    func publish(_ outputs: [LeafOutput]) {
        lane.publish { $0.publications(outputs, topics: core) }
    }

    /// Retained state on `leaf`, sent when it changed.
    func state(_ leaf: String, _ payload: String) { publish([.state(leaf, payload)]) }

    /// The device's retained `info`: what every device's holds (`SessionCore.infoMembers`) and `members`.
    func describe(_ members: [String: JSONValue]) {
        state("info", JSONValue.object(core.infoMembers.merging(members) { $1 }).text)
    }

    /// Changes the stream state and publishes what `body` says of it, under the lane's lock: a command's change and
    /// a stream's value never interleave.
    func update(_ body: (inout StreamState) -> [LeafOutput]) {
        lane.publish { [core] state in state.publications(body(&state.stream), topics: core) }
    }

    /// Runs `body` on the stream state, under the lane's lock.
    func withStreamState<Result: Sendable>(_ body: (inout StreamState) -> Result) -> Result {
        lane.withState { body(&$0.stream) }
    }

    /// Decodes a value read (not notified): malformed bytes are counted and logged, and give nil.
    func decode<Value>(_ bytes: [UInt8], from characteristic: String, _ decoder: ([UInt8]) throws -> Value) -> Value? {
        core.decode(bytes, from: characteristic, decoder)
    }
}

/// The engine's state under the lane's lock: the profile's stream state and what each retained leaf last said.
struct EngineState<StreamState: Sendable>: Sendable {
    var stream: StreamState
    var retained: RetainedLeaves

    /// `outputs` as publications: state only where the leaf's value changed.
    mutating func publications(_ outputs: [LeafOutput], topics core: SessionCore) -> [Publication] {
        var publications: [Publication] = []
        for output in outputs {
            switch output {
            case .state(let leaf, let payload): publications += retained.changed(leaf, payload)
            case .value(let leaf, let payload, let qos):
                publications.append(Publication(topic: core.topic(leaf), payload: payload, qos: qos))
            }
        }
        return publications
    }
}
