import Bridge
import Foundation
import Peripherals
import Testing

@testable import DaemonConfiguration

/// Each family's section comes from the keys the family declares: the file's keys, their flags, their
/// checks and the configuration printed, with nothing about a family in the configuration's own code.
struct FamilySectionTests {
    @Test func everyRegisteredFamilyIsASectionOfTheFile() throws {
        for family in DeviceFamily.allCases {
            #expect(ConfigurationKey.sections.contains(family.rawValue), "\(family)")
            #expect(try load("\(family.rawValue): {}").bridge.gateway == "testhost")
        }
        #expect(try load("belt: {}").description.contains("\nbelt: {}\n"))
    }

    @Test func everyFamilyKeyHasOneFlagThatSetsIt() throws {
        let flags = ConfigurationKey.familyKeys.compactMap(\.flag)
        #expect(flags.count == ConfigurationKey.familyKeys.count)
        #expect(Set(flags).count == flags.count)
        #expect(flags.contains("--a5-keepalive-seconds") && flags.contains("--cpr-distance-reference-dbm"))
    }

    @Test func familyFlagsTakeTheirValueAfterASpaceOrAnEqualsSign() throws {
        let loaded = try load(
            "cpr: {angle_samples: 3}",
            flags: flags(
                "--cpr-range-mm", "40,65", "--cpr-distance-reference-dbm=-65.5", "--cpr-angle-samples", "8",
                "--cpr-signal-seconds", "2", "--a5-battery-seconds=30"))
        #expect(loaded.bridge.cprBand.targetRange == (try CPRBandDepthRange(minMillimetres: 40, maxMillimetres: 65)))
        #expect(loaded.bridge.cprBand.distance.referencePowerDBm == -65.5)
        #expect(loaded.bridge.cprBand.angleSamples == 8)
        #expect(loaded.bridge.cprBand.signalInterval == .seconds(2))
        #expect(loaded.bridge.activ5.batteryInterval == .seconds(30))
        // The configuration in effect says which flag gave each value that is not the file's.
        #expect(
            loaded.description.contains(
                "cpr:\n  angle_samples: 8  # from --cpr-angle-samples\n  range_mm: [40, 65]  # from --cpr-range-mm\n"))
        #expect(
            loaded.description.contains(
                "  distance:\n    reference_dbm: -65.5  # from --cpr-distance-reference-dbm\n    exponent: 2\n"))
    }

    @Test func aFamilyNeverConfiguredReadsAsItsDefaults() {
        let store = FamilySettingsStore()
        #expect(store[Activ5Options.self].reconnect)
        #expect(store[GripSettings.self].profile == .placeholder)
        #expect(store[GripSettings.self].profileFile == nil)
        #expect(store.settings(of: .belt) == nil)
        #expect(store.settings(of: .cpr)?.effective == CPRBandOptions().effective)
    }
}
