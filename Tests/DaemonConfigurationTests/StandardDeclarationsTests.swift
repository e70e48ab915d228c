import Foundation
import Peripherals
import Testing

@testable import DaemonConfiguration

/// The Bluetooth SIG's standard profiles shipped as declarations (`declarations/`), each read as the daemon reads it
/// and fed golden vectors written from the GATT Specification Supplement: bytes in, the published fields out.
struct StandardDeclarationsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("declarations")

    private func declaration(_ name: String) throws -> DeviceDeclaration {
        let file = Self.folder.appendingPathComponent(name + ".yaml")
        return try DeclarationReader.read(
            try String(contentsOf: file, encoding: .utf8), file: file.lastPathComponent,
            takenFamilies: DeclarationReaderTests.taken)
    }

    /// The published fields of `uuid`'s value `bytes`, by name.
    private func decode(_ name: String, _ uuid: String, _ bytes: [UInt8]) throws -> [String: DeclaredValue] {
        let full = BluetoothUUID.normalized(uuid)
        let characteristic = try #require(try declaration(name).characteristics.first { $0.uuid == full })
        let fields = try DeclaredDecoder.decode(bytes, fields: characteristic.fields, characteristic: full)
        return Dictionary(uniqueKeysWithValues: fields.map { ($0.name, $0.value) })
    }

    @Test func everyShippedDeclarationReads() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).filter {
            $0.hasSuffix(".yaml")
        }
        #expect(
            Set(names) == [
                "cycling_power.yaml", "cycling_speed_cadence.yaml", "environmental_sensing.yaml",
                "fitness_machine.yaml", "running_speed_cadence.yaml", "weight_scale.yaml",
            ])
        let families = try names.map { try declaration(String($0.dropLast(5))).family }
        #expect(Set(families).count == names.count, "one family each: \(families)")
        // docs/devices.md's table of the shipped ones lists each, no more.
        let docs = try String(
            contentsOf: Self.folder.deletingLastPathComponent().appendingPathComponent("docs/devices.md"),
            encoding: .utf8)
        let listed = docs.split(separator: "\n").compactMap { line in
            line.firstMatch(of: #/^\| `([a-z_]+\.yaml)` \|/#).map { String($0.output.1) }
        }
        #expect(Set(listed) == Set(names) && listed.count == names.count, "\(listed)")
    }

    /// GSS 3.58: wheel and crank data, each by its flag; GSS 3.196 Sensor Location.
    @Test func cyclingSpeedAndCadence() throws {
        #expect(
            try decode("cycling_speed_cadence", "2A5B", [0x03, 0x34, 0x12, 0, 0, 0x00, 0x04, 0x10, 0x00, 0x00, 0x08])
                == [
                    "wheel_revolutions": .integer(4660), "wheel_event_time": .number(1),
                    "crank_revolutions": .integer(16),
                    "crank_event_time": .number(2),
                ])
        #expect(try decode("cycling_speed_cadence", "2A5D", [4]) == ["location": .text("front_wheel")])
        #expect(
            try decode("cycling_speed_cadence", "2A5C", [0x03, 0x00]) == [
                "wheel_supported": .flag(true), "crank_supported": .flag(true),
                "multiple_locations_supported": .flag(false),
            ])
    }

    /// The simulator's encoder, written from the specification (`CSCMeasurement`, `CSCFeature`), and the shipped
    /// declaration agree: a speed sensor's measurement (wheel data only) and a combined sensor's, wrapping counters.
    @Test func theSpecificationsEncoderAndTheDeclarationAgree() throws {
        let speed = CSCMeasurement(wheel: (revolutions: 0xFFFF_FFFF, eventTime: 0xFFFF), crank: nil)
        #expect(speed.encoded() == [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(
            try decode("cycling_speed_cadence", "2A5B", speed.encoded()) == [
                "wheel_revolutions": .integer(4_294_967_295), "wheel_event_time": .number(65535.0 / 1024),
            ])
        let both = CSCMeasurement(wheel: (revolutions: 2, eventTime: 256), crank: (revolutions: 1, eventTime: 256))
        #expect(both.encoded() == [0x03, 0x02, 0, 0, 0, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01])
        #expect(
            try decode("cycling_speed_cadence", "2A5B", both.encoded()) == [
                "wheel_revolutions": .integer(2), "wheel_event_time": .number(0.25), "crank_revolutions": .integer(1),
                "crank_event_time": .number(0.25),
            ])
        #expect(CSCFeature(wheel: true, crank: false, multipleLocations: true).encoded() == [0x05, 0x00])
    }

    /// The other simulators' encoders, written from the specifications (`CyclingPowerMeasurement`, `RSCMeasurement`,
    /// `WeightMeasurement`, `IndoorBikeData`), and the shipped declarations agree; so do the Cycling Power Control
    /// Point's op codes and parameters (CPS 3.5) and its declared commands.
    @Test func theOtherSimulatorsEncodersAndTheDeclarationsAgree() throws {
        let power = CyclingPowerMeasurement(
            power: 240, balance: (halfPercent: 100, left: true), wheel: (revolutions: 3, eventTime: 512),
            crank: (revolutions: 1, eventTime: 256), accumulatedEnergy: 2)
        #expect(
            try decode("cycling_power", "2A63", power.encoded()) == [
                "balance_reference_left": .flag(true), "torque_source_crank": .flag(false),
                "offset_compensation": .flag(false), "power": .integer(240), "pedal_power_balance": .number(50),
                "wheel_revolutions": .integer(3), "wheel_event_time": .number(0.25), "crank_revolutions": .integer(1),
                "crank_event_time": .number(0.25), "accumulated_energy": .integer(2),
            ])
        #expect(try decode("cycling_power", "2A5D", [6]) == ["location": .text("right_crank")])
        let run = RSCMeasurement(speed: 768, cadence: 170, strideLength: 106, totalDistance: 75, running: true)
        #expect(
            try decode("running_speed_cadence", "2A53", run.encoded()) == [
                "running": .flag(true), "speed": .number(3), "cadence": .integer(170), "stride_length": .number(1.06),
                "total_distance": .number(7.5),
            ])
        let imperial = WeightMeasurement(imperial: true, weight: 15_450, user: 255)
        #expect(
            try decode("weight_scale", "2A9D", imperial.encoded()) == [
                "weight_lb": .number(154.5), "user": .text("unknown"),
            ])
        let ride = IndoorBikeData(speed: 3000, cadence: 180, totalDistance: 70_000, resistanceLevel: 12, power: 250)
        #expect(
            try decode("fitness_machine", "2AD2", ride.encoded()) == [
                "speed": .number(30), "cadence": .number(90), "total_distance": .integer(70_000),
                "resistance_level": .integer(12), "power": .integer(250),
            ])
        let commands = try declaration("cycling_power").commands
        let crank = try #require(commands.first { $0.name == "set_crank_length" }).encode(["millimetres": 172.5])
        #expect(CyclingPowerControlPoint.request(crank) == .setCrankLength(halfMillimetres: 345))
        let wheel = try #require(commands.first { $0.name == "set_wheel_revolutions" }).encode(["revolutions": 5000])
        #expect(CyclingPowerControlPoint.request(wheel) == .setCumulativeValue(5000))
        #expect(commands.allSatisfy { $0.answer?.prefix == [0x20, $0.parts.first.flatMap(Self.opCode) ?? 0xFF] })
    }

    /// GSS 3.124 Indoor Bike Data: flags 0x0044 (bit 0 clear: the speed is there; cadence; power), then all but the
    /// speed (bit 0 set: more data follows in another value); FTMS 4.16's control point op codes and parameters.
    @Test func fitnessMachine() throws {
        #expect(
            try decode("fitness_machine", "2AD2", [0x44, 0x00, 0x10, 0x0E, 0xB4, 0x00, 0xC8, 0x00]) == [
                "speed": .number(36), "cadence": .number(90), "power": .integer(200),
            ])
        let everything: [UInt8] =
            [0xFF, 0x1F, 0xE8, 0x03, 0x64, 0x00, 0x50, 0x00, 0x10, 0x27, 0x00, 0x05, 0x00, 0x96, 0x00, 0x8C, 0x00]
            + [0x2C, 0x01, 0x58, 0x02, 0x05, 0x78, 0x32, 0x3C, 0x00, 0x84, 0x03]
        #expect(
            try decode("fitness_machine", "2AD2", everything) == [
                "average_speed": .number(10), "cadence": .number(50), "average_cadence": .number(40),
                "total_distance": .integer(10000), "resistance_level": .integer(5), "power": .integer(150),
                "average_power": .integer(140), "total_energy": .integer(300), "energy_per_hour": .integer(600),
                "energy_per_minute": .integer(5), "heart_rate": .integer(120), "metabolic_equivalent": .number(5),
                "elapsed_time": .integer(60), "remaining_time": .integer(900),
            ])
        let commands = try declaration("fitness_machine").commands
        func encoded(_ name: String, _ numbers: [String: Double] = [:]) throws -> [UInt8] {
            try #require(commands.first { $0.name == name }).encode(numbers)
        }
        #expect(try encoded("request_control") == [0x00])
        #expect(try encoded("set_target_resistance", ["level": 12.5]) == [0x04, 125])
        #expect(try encoded("set_target_power", ["watts": 200]) == [0x05, 0xC8, 0x00])
        #expect(try encoded("start") == [0x07] && encoded("stop") == [0x08, 0x01])
        #expect(commands.allSatisfy { $0.answer?.prefix == [0x80, $0.parts.first.flatMap(Self.opCode) ?? 0xFF] })
    }

    private static func opCode(_ part: DeclaredCommand.Part) -> UInt8? {
        if case .constant(let bytes) = part { return bytes.first }
        return nil
    }

    /// GSS 3.65: power with balance, wheel (1/2048 s) and crank (1/1024 s) data; the extreme angles, two 12-bit
    /// halves of a uint24.
    @Test func cyclingPower() throws {
        let flags: [String: DeclaredValue] = [
            "balance_reference_left": .flag(false), "torque_source_crank": .flag(false),
            "offset_compensation": .flag(false),
        ]
        #expect(
            try decode(
                "cycling_power", "2A63",
                [0x31, 0x00, 0xFA, 0x00, 0x64, 0x10, 0x27, 0, 0, 0x00, 0x08, 0x2A, 0x00, 0x00, 0x04]
            )
                == flags.merging([
                    "power": .integer(250), "pedal_power_balance": .number(50), "wheel_revolutions": .integer(10000),
                    "wheel_event_time": .number(1), "crank_revolutions": .integer(42), "crank_event_time": .number(1),
                ]) { $1 })
        #expect(
            try decode("cycling_power", "2A63", [0x00, 0x01, 0x64, 0x00, 0xB4, 0xA0, 0x05])
                == flags.merging([
                    "power": .integer(100), "maximum_angle": .integer(180), "minimum_angle": .integer(90),
                ]) { $1 })
    }

    /// GSS 3.187: speed in 1/256 m/s, cadence, stride in cm, distance in dm, walking or running.
    @Test func runningSpeedAndCadence() throws {
        #expect(
            try decode("running_speed_cadence", "2A53", [0x07, 0x00, 0x03, 0xAA, 0x96, 0x00, 0x39, 0x30, 0, 0]) == [
                "running": .flag(true), "speed": .number(3), "cadence": .integer(170), "stride_length": .number(1.5),
                "total_distance": .number(1234.5),
            ])
        #expect(
            try decode("running_speed_cadence", "2A53", [0x00, 0x80, 0x01, 0x50]) == [
                "running": .flag(false), "speed": .number(1.5), "cadence": .integer(80),
            ])
    }

    /// GSS 3.204, 3.120, 3.181.
    @Test func environmentalSensing() throws {
        #expect(try decode("environmental_sensing", "2A6E", [0x66, 0x08]) == ["temperature": .number(21.5)])
        #expect(try decode("environmental_sensing", "2A6E", [0x9A, 0xFF]) == ["temperature": .number(-1.02)])
        #expect(try decode("environmental_sensing", "2A6F", [0xB3, 0x15]) == ["humidity": .number(55.55)])
        #expect(try decode("environmental_sensing", "2A6D", [0x02, 0x76, 0x0F, 0x00]) == ["pressure": .number(101325)])
    }

    /// GSS 3.258: SI with time stamp, user and BMI with height in metres; imperial with height in inches.
    @Test func weightScale() throws {
        #expect(
            try decode(
                "weight_scale", "2A9D",
                [0x0E, 0x60, 0x36, 0xEA, 0x07, 12, 3, 21, 5, 30, 0x01, 0xE1, 0x00, 0xD6, 0x06]
            ) == [
                "weight": .number(69.6), "year": .integer(2026), "month": .integer(12), "day": .integer(3),
                "hours": .integer(21), "minutes": .integer(5), "seconds": .integer(30), "user": .integer(1),
                "bmi": .number(22.5), "height": .number(1.75),
            ])
        #expect(
            try decode("weight_scale", "2A9D", [0x09, 0x5A, 0x3C, 0xE1, 0x00, 0xBC, 0x02]) == [
                "weight_lb": .number(154.5), "bmi": .number(22.5), "height_in": .number(70),
            ])
        #expect(
            try decode("weight_scale", "2A9D", [0x04, 0x60, 0x36, 0xFF]) == [
                "weight": .number(69.6), "user": .text("unknown"),
            ])
    }
}
