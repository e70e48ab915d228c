import Peripherals

/// The standard heart rate sensor for the session engine: each measurement becomes its rate, its RR intervals, the
/// sensor's skin contact and the energy expended; the battery streams where the sensor notifies it; where it is worn
/// and what the Device Information service says are read once per connection.
struct HeartRateFamilyProfile: FamilyProfile {
    typealias Command = HeartRateCommand
    let family = DeviceFamily.hr
    /// A strap may take a moment to answer after it wakes: as long as BlueZ's own LE connection attempt.
    var connectTimeout = Duration.seconds(10)
    var initialStreamState: Void { () }

    var streams: [ProfileStream<Void>] {
        [
            ProfileStream(
                characteristic: HeartRateGATT.Characteristic.measurement, service: HeartRateGATT.Service.heartRate
            ) { _, bytes in HeartRateLeaves.leaves(of: try HeartRateMeasurement(bytes: bytes)) },
            StandardBattery.stream(),
        ]
    }

    func handshake(_ device: ConnectedDevice<Self>) async throws -> HandshakeOutcome {
        let exported = await device.characteristics()
        // Device Information is optional: a strap without it, or one that refuses a read, is still a strap.
        device.describe(await StandardDeviceInformation.read(from: device, exported: exported))
        let location = HeartRateGATT.Characteristic.bodySensorLocation
        if exported.contains(location),
            let bytes = try? await device.read(location, in: HeartRateGATT.Service.heartRate),
            let decoded = device.decode(bytes, from: location, { try HeartRateBodySensorLocation(bytes: $0) })
        {
            device.state("location", HeartRateLeaves.name(of: decoded))
        }
        // Where bluetoothd's battery plugin claims the Battery Service, the level is BlueZ's (`Battery1`).
        if !exported.contains(HeartRateGATT.Characteristic.batteryLevel), let level = await device.batteryPercentage() {
            device.publish([StandardBattery.leaf(Int(level))])
        }
        return .streaming
    }

    func execute(_ command: HeartRateCommand, name: String, on device: ConnectedDevice<Self>) async throws(CommandError)
        -> [String: JSONValue]
    {
        switch command {
        case .resetEnergy:
            let controlPoint = HeartRateGATT.Characteristic.controlPoint
            guard await device.characteristics().contains(controlPoint) else {
                throw CommandError(.invalidState, "this sensor has no Heart Rate Control Point: it counts no energy")
            }
            try await device.write(
                HeartRateControlPointCommand.resetEnergyExpended.encoded(), to: controlPoint,
                in: HeartRateGATT.Service.heartRate)
            return [:]
        }
    }
}
