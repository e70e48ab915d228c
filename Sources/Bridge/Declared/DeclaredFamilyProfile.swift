import BlueZ
import Locks
import Peripherals

/// A device declared as data (`DeviceDeclaration`) for the one session engine, with nothing of its own in Swift: its
/// notified and indicated characteristics are its streams, each value decoded by `DeclaredDecoder` (a malformed value
/// is counted and logged by the engine, and publishes nothing); those read once are read in the handshake, those
/// polled again by a timer. As for any standard device, Device Information fills its `info` and the Battery Service
/// its `battery` (the reader refuses a declaration of either).
///
/// A characteristic it notifies or indicates must be there (a device without its measurement is not the device
/// declared); one it reads is optional (Sensor Location, in the SIG's profiles), skipped when the device lacks it.
struct DeclaredFamilyProfile: FamilyProfile {
    typealias Command = DeclaredCommandCall
    let declaration: DeviceDeclaration
    let family: DeviceFamily

    init(declaration: DeviceDeclaration) {
        self.declaration = declaration
        family = DeviceFamily(declaring: declaration.family)
    }

    var initialStreamState: Void { () }

    var streams: [ProfileStream<Void>] {
        let declared = declaration.characteristics.compactMap { characteristic -> ProfileStream<Void>? in
            guard characteristic.isSubscribed else { return nil }
            // A stream's JSON compiled once for its values (`DeclaredJSONPlan`); leaves of their own per field as read.
            let plan = DeclaredJSONPlan(characteristic)
            return ProfileStream(characteristic: characteristic.uuid, service: characteristic.service) { _, bytes in
                try plan?.leaves(of: bytes) ?? Self.leaves(of: bytes, from: characteristic)
            }
        }
        // Each control point a command waits on: subscribed at start (a control point refuses a write while its
        // indications are off), every value an answer for the waiters, none published; optional, as the device
        // may lack it (its commands then say so).
        var answered: [String] = []
        let controlPoints = declaration.commands.compactMap { command -> ProfileStream<Void>? in
            guard let answer = command.answer, !answered.contains(answer.characteristic) else { return nil }
            answered.append(answer.characteristic)
            return ProfileStream(characteristic: answer.characteristic, service: command.service, isOptional: true) {
                _, _ in nil
            }
        }
        return declared + [StandardBattery.stream()] + controlPoints
    }

    var timers: [ProfileTimer<Self>] {
        declaration.characteristics.compactMap { characteristic in
            guard case .poll(let interval) = characteristic.access else { return nil }
            return ProfileTimer(key: "poll \(characteristic.uuid)", interval: interval) { device in
                await Self.read(characteristic, on: device, exported: await device.characteristics())
            }
        }
    }

    func handshake(_ device: ConnectedDevice<Self>) async throws -> HandshakeOutcome {
        // What the device exports, listed once (each list is a walk of BlueZ's whole object cache).
        let exported = await device.characteristics()
        device.describe(await StandardDeviceInformation.read(from: device, exported: exported))
        for characteristic in declaration.characteristics where !characteristic.isSubscribed {
            await Self.read(characteristic, on: device, exported: exported)
        }
        // Where bluetoothd's battery plugin claims the Battery Service, the level is BlueZ's (`Battery1`).
        if !exported.contains(StandardBattery.level),
            let level = await device.batteryPercentage()
        {
            device.publish([StandardBattery.leaf(Int(level))])
        }
        return .streaming
    }

    /// Writes the command's value; for a control point, waits for the indication that answers it and replies with its
    /// result: success, or the result code's name.
    func execute(_ call: DeclaredCommandCall, name: String, on device: ConnectedDevice<Self>) async throws(CommandError)
        -> [String: JSONValue]
    {
        let command = call.command
        guard await device.characteristics().contains(command.characteristic) else {
            throw CommandError(.invalidState, "this device has no \(command.characteristic): it cannot '\(name)'")
        }
        let type: GattWriteType = command.withResponse ? .request : .command
        guard let answer = command.answer else {
            try await device.write(call.bytes, to: command.characteristic, in: command.service, type: type)
            return [:]
        }
        guard device.isSubscribed(answer.characteristic) else {
            throw CommandError(.invalidState, "this device does not indicate \(answer.characteristic): no answer")
        }
        let result = Mutex<UInt8?>(nil)
        let answered: Bool
        do {
            answered = try await device.request(
                { try await device.write(call.bytes, to: command.characteristic, in: command.service, type: type) },
                awaiting: { heard in
                    guard answer.answers(heard.bytes, on: heard.characteristic) else { return false }
                    result.withLock { $0 = heard.bytes[answer.resultAt] }
                    return true
                }, timeout: answer.timeout)
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(.gattError, "\(error)")
        }
        guard answered, let code = result.withLock({ $0 }) else {
            throw CommandError(.timeout, "no answer on \(answer.characteristic) within \(answer.timeout)")
        }
        guard code == answer.success else {
            let named = answer.results[Int64(code)].map { "\($0) (\(code))" } ?? "result code \(code)"
            throw CommandError(.gattError, "the device refused '\(name)': \(named)")
        }
        return [:]
    }

    /// One value's leaves; throws for bytes the declaration does not explain.
    static func leaves(of bytes: [UInt8], from characteristic: DeclaredCharacteristic) throws -> [LeafOutput] {
        DeclaredLeaves.leaves(
            of: try DeclaredDecoder.decode(bytes, fields: characteristic.fields, characteristic: characteristic.uuid),
            from: characteristic)
    }

    /// Reads a characteristic the device has and publishes what it says; one it lacks, or a read it refuses, says
    /// nothing (the log says why at debug level).
    static func read(_ characteristic: DeclaredCharacteristic, on device: ConnectedDevice<Self>, exported: Set<String>)
        async
    {
        guard exported.contains(characteristic.uuid) else { return }
        let bytes: [UInt8]
        do {
            bytes = try await device.read(characteristic.uuid, in: characteristic.service)
        } catch {
            device.logger.debug("\(characteristic.uuid) not read: \(error)")
            return
        }
        if let outputs = device.decode(bytes, from: characteristic.uuid, { try leaves(of: $0, from: characteristic) }) {
            device.publish(outputs)
        }
    }
}

extension DeclaredCharacteristic {
    /// Whether its values come by notification or indication rather than by reads.
    var isSubscribed: Bool { access == .notify || access == .indicate }
}

/// A declared command as its payload made it: the value to write, checked before any device was asked.
struct DeclaredCommandCall: Sendable, Equatable {
    let command: DeclaredCommand
    let bytes: [UInt8]
}
