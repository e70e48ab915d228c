import ArgumentParser
import Bridge
import Dispatch
import Foundation
import MQTT

/// `gatt2mqtt-bench floor-relay`: the least a central can do end to end, the floor every relay's CPU and
/// latency are held against. It connects the devices, acquires each one's stream socket (`DBusFloor`),
/// and on the thread that reads a packet formats the value as gatt2mqtt does and hands it to
/// `mosquitto_publish` (`MQTTClient.publish`, plain TCP: that thread writes the PUBLISH). Nothing else: no
/// sessions, no commands, no state. The benchmark starts it as a process so that its CPU is measured
/// the way every relay's is.
struct FloorRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "floor-relay",
        abstract: "The benchmark's floor relay: device socket → format → mosquitto_publish, nothing else.")

    /// Its topics: `floor-relay/<id>/<leaf>`.
    static let prefix = "floor-relay"
    /// Printed once every device streams.
    static let readyLine = "floor-relay: streaming"

    @Option(help: "The D-Bus address of BlueZ's bus.")
    var bus: String

    @Option(help: "The broker's port on 127.0.0.1.")
    var port: Int

    @Option(help: "The device family.")
    var family: BenchFamily

    @Option(
        help:
            "The sample period to write, in ms, for a family whose relays write one (the Activ5); the others' simulators are given their rate."
    )
    var periodMs: Int16 = 5

    @Flag(help: "AcquireNotify where the bus can pass the socket (else StartNotify).")
    var acquireNotify = false

    @Option(help: "A device as ADDRESS@ADAPTER (repeat for each).")
    var device: [String] = []

    func run() async throws {
        let targets = try device.map { text -> (address: String, central: String) in
            let parts = text.split(separator: "@")
            guard parts.count == 2 else { throw ValidationError("--device: ADDRESS@ADAPTER, not '\(text)'") }
            return (String(parts[0]), String(parts[1]))
        }
        let mqtt = try MQTTClient(
            configuration: MQTTConfiguration(host: "127.0.0.1", port: port, clientID: "floor-relay"))
        mqtt.start()
        try await mqtt.connected()
        let (family, qos) = (family, MQTTQoS(rawValue: Int(family.qos)) ?? .atMostOnce)
        // Topics by the key DBusFloor hands over (the address as an object path writes it), written once.
        let topics = Dictionary(
            uniqueKeysWithValues: targets.map { target in
                (
                    target.address.uppercased().replacingOccurrences(of: ":", with: "_"),
                    "\(Self.prefix)/\(DeviceID.from(address: target.address))/\(family.leaf)"
                )
            })
        let floor = try DBusFloor(address: bus, acquireNotify: acquireNotify, family: family) { key, value in
            guard let topic = topics[key], let payload = family.floorPayload(value) else { return }
            try? mqtt.publish(MQTTMessage(topic: topic, string: payload, qos: qos))
        }
        let devices = try await floor.connect(targets)
        for device in devices { try await floor.startStreaming(device, periodMilliseconds: periodMs) }
        // Unbuffered: the benchmark waits for this line on a pipe.
        FileHandle.standardOutput.write(Data("\(Self.readyLine) \(devices.count)\n".utf8))
        await Self.terminated()
        for device in devices {
            try? await floor.stopStreaming(device)
            try? await floor.disconnect(device)
        }
        floor.close()
        await mqtt.stop()
    }

    /// Returns once SIGTERM or SIGINT arrives.
    private static func terminated() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "floor-relay.signals")
            let once = OnceFlag()
            let sources = [SIGTERM, SIGINT].map { number in
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { if once.take() { continuation.resume() } }
                source.resume()
                return source
            }
            // Kept alive for the process's life: it ends right after.
            SignalSources.keep(sources)
        }
    }
}

/// True once, on the queue that asks.
private final class OnceFlag: @unchecked Sendable {
    private var taken = false
    /// Only ever called on one serial queue.
    func take() -> Bool {
        defer { taken = true }
        return !taken
    }
}

/// Holds the signal sources until the process ends.
private enum SignalSources {
    nonisolated(unsafe) private static var kept: [any DispatchSourceSignal] = []
    static func keep(_ sources: [any DispatchSourceSignal]) { kept = sources }
}
