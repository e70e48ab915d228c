import ArgumentParser
import Peripherals

/// `--location`: what Body Sensor Location (2A38) reads, by name (`chest`, `wrist`, `ear-lobe`, …) or as the byte
/// itself, 0–255, so that a test can serve a reserved location (7–255) the bridge must still accept.
///
/// A wrapper rather than a conformance of `HeartRateBodySensorLocation`: the names are the command line's, not the
/// protocol's.
struct HeartRateLocationArgument: ExpressibleByArgument, Sendable, Equatable {
    /// Every named location, by the name the command line takes.
    static let names: [(name: String, location: HeartRateBodySensorLocation)] = [
        ("other", .other), ("chest", .chest), ("wrist", .wrist), ("finger", .finger), ("hand", .hand),
        ("ear-lobe", .earLobe), ("foot", .foot),
    ]

    var location: HeartRateBodySensorLocation

    init(_ location: HeartRateBodySensorLocation) { self.location = location }

    init?(argument: String) {
        // `earlobe` and `ear_lobe` too: nobody should have to remember the hyphen.
        let text = argument.lowercased().filter { $0 != "-" && $0 != "_" }
        if let named = Self.names.first(where: { $0.name.filter { $0 != "-" } == text }) {
            location = named.location
        } else if let byte = UInt8(text) {
            location = HeartRateBodySensorLocation(byte: byte)
        } else {
            return nil
        }
    }

    var defaultValueDescription: String {
        Self.names.first { $0.location == location }?.name ?? String(location.byte)
    }
}
