import ArgumentParser
import Foundation
import Peripherals

/// The peak depths of `--depth-mm`: a nominal depth with a little variation (`55` gives 52–58 mm), or
/// an explicit range (`45-65`) wide enough to produce peaks inside and outside the band's correct range.
struct CPRBandDepthSpec: ExpressibleByArgument, Sendable, Equatable, CustomStringConvertible {
    /// Variation around a single nominal depth, in millimetres either side.
    static let variationMillimetres = 3

    /// The depths drawn from, in millimetres, bounds included.
    var millimetres: ClosedRange<Int>
    /// The argument as given.
    var description: String

    /// Parses `<mm>` or `<min>-<max>`; depths must fit the one-byte wire value (1–255 mm).
    init?(argument: String) {
        let parts = argument.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let wire = 1...255
        switch parts.count {
        case 1:
            guard let nominal = Int(parts[0]), wire.contains(nominal) else { return nil }
            let spread = Self.variationMillimetres
            millimetres = max(wire.lowerBound, nominal - spread)...min(wire.upperBound, nominal + spread)
        case 2:
            guard let low = Int(parts[0]), let high = Int(parts[1]), wire.contains(low), wire.contains(high),
                low <= high
            else { return nil }
            millimetres = low...high
        default:
            return nil
        }
        description = argument
    }
}

/// A battery byte for FFF3, given as the raw byte (`190`, `0xBE`) or as a percentage (`50%`), which is
/// turned into the byte that reads as that percentage in the Bus library's mapping (§A.8.3): 100 % is
/// `0xFF`; anything above 83.3 % reads 83.3 % there (the library's quirk), so the byte then only carries
/// the voltage.
struct CPRBandBatterySpec: ExpressibleByArgument, Sendable, Equatable {
    /// The byte FFF3 returns.
    var raw: UInt8

    init(raw: UInt8) { self.raw = raw }

    init?(argument: String) {
        let text = argument.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), (0...100).contains(percent) else { return nil }
            raw = Self.raw(forPercent: percent)
        } else if text.hasPrefix("0x") {
            guard let value = UInt8(text.dropFirst(2), radix: 16) else { return nil }
            raw = value
        } else {
            guard let value = UInt8(text) else { return nil }
            raw = value
        }
    }

    /// The byte for a percentage: `0xFF` at 100 %, otherwise 3.5 V + percent × 0.6 V / 100 in 20 mV steps.
    static func raw(forPercent percent: Double) -> UInt8 {
        guard percent < 100 else { return CPRBandBatteryLevel.fullRaw }
        let mapping = CPRBandBatteryMapping.busLibrary
        return CPRBandBatteryLevel.raw(forVolts: mapping.emptyVolts + mapping.spanVolts * percent / 100)
    }
}

/// What the simulated rescuer does with the band: peak depths drawn from `depth`, and a wrist angle that
/// sways slowly around 0° (±10° over 8 s, with a degree of noise) unless a test holds a fixed angle.
/// Draws come from a seeded generator, so a run can be reproduced.
struct CPRBandMotion: Sendable {
    /// Amplitude of the sway, degrees.
    static let swayDegrees = 10.0
    /// Period of the sway, seconds.
    static let swaySeconds = 8.0

    var depth: CPRBandDepthSpec
    /// An angle held by a test (`angle <degrees>`); nil lets the wrist sway.
    var heldDegrees: Int?
    private var random: SplitMix64

    init(depth: CPRBandDepthSpec, seed: UInt64) {
        self.depth = depth
        random = SplitMix64(seed: seed)
    }

    /// The peak of the next compression.
    mutating func nextDepth() -> CPRBandDepth {
        CPRBandDepth(millimetres: UInt8(Int.random(in: depth.millimetres, using: &random)))
    }

    /// The angle at `time` (seconds since start).
    mutating func angle(at time: Double) -> CPRBandAngle {
        if let heldDegrees { return CPRBandAngle(degrees: heldDegrees) }
        let sway = Self.swayDegrees * sin(2 * .pi * time / Self.swaySeconds)
        let noise = Double(Int.random(in: -1...1, using: &random))
        return CPRBandAngle(degrees: Int((sway + noise).rounded()))
    }

    /// A seed that differs between bands of different names and is the same on every run (FNV-1a).
    static func seed(for name: String) -> UInt64 {
        name.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }
}
