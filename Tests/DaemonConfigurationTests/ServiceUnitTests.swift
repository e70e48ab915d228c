import Bridge
import Foundation
import MQTT
import TestSupport
import Testing

/// The packaged systemd unit (`systemd/gatt2mqtt.service`, which `debian/` installs): its start limit must trip for a
/// daemon that ends at once after every start, which systemd's default (5 starts in 10 s) never does with the
/// unit's `RestartSec=5`, and must leave room for the restarts the gateway itself allows over MQTT. What systemd
/// does with it is the installed tier's (`InstalledPackageTests`).
struct ServiceUnitTests {
    static let unit = ProjectPaths.root + "/systemd/gatt2mqtt.service"

    /// `Key=Value` lines by section (`Unit`, `Service`, `Install`): the last value of a key, as systemd takes it.
    static func sections() throws -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var section = ""
        for line in try String(contentsOfFile: unit, encoding: .utf8).split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("#") || text.isEmpty { continue }
            if text.hasPrefix("["), text.hasSuffix("]") {
                section = String(text.dropFirst().dropLast())
                continue
            }
            guard let equals = text.firstIndex(of: "=") else { continue }
            sections[section, default: [:]][String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return sections
    }

    @Test func theStartLimitTripsForARestartLoopAndLeavesRoomForRequestedRestarts() throws {
        let sections = try Self.sections()
        let unit = try #require(sections["Unit"])
        let service = try #require(sections["Service"])
        #expect(service["StartLimitIntervalSec"] == nil && service["StartLimitBurst"] == nil, "they belong in [Unit]")
        let interval = try #require(unit["StartLimitIntervalSec"].flatMap { Int($0) }, "\(unit)")
        let burst = try #require(unit["StartLimitBurst"].flatMap { Int($0) }, "\(unit)")
        let restartSeconds = try #require(service["RestartSec"].flatMap { Int($0) }, "\(service)")
        // A daemon that ends at once starts every RestartSec: burst + 1 starts fall within the interval, so it trips.
        #expect(burst * restartSeconds < interval, "burst \(burst), RestartSec \(restartSeconds), interval \(interval)")
        // Restarts asked for over MQTT come one per hold-off at most (plus RestartSec): those that fit in an interval,
        // and the first start, stay under the burst.
        let configuration = BridgeConfiguration(mqtt: MQTTConfiguration(host: "x"), adapters: ["hci0"], gateway: "t")
        let holdOff = Int(configuration.restartHoldOff.components.seconds)
        #expect(interval / (holdOff + restartSeconds) + 1 < burst, "hold-off \(holdOff) s")
    }

    /// The Debian package installs the same unit (`debian/gatt2mqtt.service` points at it).
    @Test func debianInstallsTheSameUnit() throws {
        let debian = try String(contentsOfFile: ProjectPaths.root + "/debian/gatt2mqtt.service", encoding: .utf8)
        #expect(debian == (try String(contentsOfFile: Self.unit, encoding: .utf8)))
    }
}
