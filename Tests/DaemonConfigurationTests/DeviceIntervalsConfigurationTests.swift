import Bridge
import Testing

@testable import DaemonConfiguration

/// `devices.intervals` (issue #58, item 2): one device's own interval for a periodic read of its family, keyed
/// `ADDRESS/setting` as `devices.entities` is, and checked by the rule the family's own interval has.
struct DeviceIntervalsConfigurationTests {
    let file = """
        devices:
          intervals: {"aa:bb:cc:dd:ee:01/battery_s": 300, "AA:BB:CC:DD:EE:01/signal_s": 1.5, "AA:BB:CC:DD:EE:02/keepalive_s": 20}
        """

    @Test func eachDevicesIntervalsComeFromTheMap() throws {
        let options = try load(file).bridge.deviceOptions
        #expect(
            options == [
                "AA:BB:CC:DD:EE:01": DeviceOptions(intervals: ["battery_s": .seconds(300), "signal_s": .seconds(1.5)]),
                "AA:BB:CC:DD:EE:02": DeviceOptions(intervals: ["keepalive_s": .seconds(20)]),
            ])
        let flagged = try load(file, flags: flags("--devices-intervals", "AA:BB:CC:DD:EE:03/battery_s=3600")).bridge
        #expect(
            flagged.deviceOptions == ["AA:BB:CC:DD:EE:03": DeviceOptions(intervals: ["battery_s": .seconds(3600)])],
            "a flag replaces the file's whole map, as every map's does")
        let fromEnvironment = try load(
            "", environment: ["GATT2MQTT_DEVICES_INTERVALS": "AA:BB:CC:DD:EE:04/signal_s=10"]
        ).bridge.deviceOptions
        #expect(fromEnvironment == ["AA:BB:CC:DD:EE:04": DeviceOptions(intervals: ["signal_s": .seconds(10)])])
    }

    /// The settings a device may have its own of are the families' declared ones, no more.
    @Test func theFamiliesDeclareWhichIntervalsADeviceMayHave() {
        #expect(DeviceOptions.intervalSettings == ["battery_s", "signal_s", "keepalive_s"])
    }

    @Test func aWrongEntryIsRefusedByItsName() throws {
        let cases: [(String, String, String)] = [
            (
                #"devices: {intervals: {"AA:BB:CC:DD:EE:01": 60}}"#, "devices.intervals.AA:BB:CC:DD:EE:01",
                "'AA:BB:CC:DD:EE:01' is not a Bluetooth address and an interval (AA:BB:CC:DD:EE:FF/battery_s)"
            ),
            (
                #"devices: {intervals: {"AA:BB:CC:DD:EE:01/rate_window_s": 60}}"#,
                "devices.intervals.AA:BB:CC:DD:EE:01/rate_window_s",
                "'rate_window_s' is no interval a device may have its own of (battery_s, keepalive_s, signal_s)"
            ),
            (
                #"devices: {intervals: {"AA:BB:CC:DD:EE:01/battery_s": often}}"#,
                "devices.intervals.AA:BB:CC:DD:EE:01/battery_s", "must be a number of seconds, not 'often'"
            ),
            (
                #"devices: {intervals: {"AA:BB:CC:DD:EE:01/battery_s": 0.5}}"#,
                "devices.intervals.AA:BB:CC:DD:EE:01/battery_s", "must be a number of seconds from 1 to 86400, not 0.5"
            ),
            (
                #"devices: {intervals: {"AA:BB:CC:DD:EE:01/battery_s": 90000}}"#,
                "devices.intervals.AA:BB:CC:DD:EE:01/battery_s",
                "must be a number of seconds from 1 to 86400, not 90000"
            ),
            (
                #"devices: {intervals: {"AA:BB:CC:DD:EE:01/battery_s": 60, "aa:bb:cc:dd:ee:01/battery_s": 30}}"#,
                "devices.intervals.aa:bb:cc:dd:ee:01/battery_s", "AA:BB:CC:DD:EE:01 is given twice"
            ),
        ]
        for (yaml, key, message) in cases {
            let error = try #require(loadError(yaml), "\(yaml)")
            #expect(error.key == key, "\(yaml)")
            #expect(error.message == message, "\(yaml)")
        }
    }

    /// `info` and `--print-config` show them as given, in seconds.
    @Test func theSettingsInEffectShowThem() throws {
        let devices = try devicesInEffect(file)
        #expect(
            devices["intervals"]
                == .object([
                    "AA:BB:CC:DD:EE:01/battery_s": .string("300"), "AA:BB:CC:DD:EE:01/signal_s": .string("1.5"),
                    "AA:BB:CC:DD:EE:02/keepalive_s": .string("20"),
                ]))
    }
}
