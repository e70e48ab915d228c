import Foundation
import MQTT
import TestSupport
import Testing

/// A real Home Assistant (the newest release that installs here, `scripts/homeassistant/install`) with its MQTT
/// integration on the test broker and the demo's five devices, a device of each shipped declaration and docs/devices.md's
/// lab thermometer (declared by a user) served by the bridge, checked through Home
/// Assistant's own APIs: every entity gatt2mqtt announces exists with the entity id it asked for, is available
/// while its device is connected and unavailable after it leaves (the fast streams exist, disabled); a button, a select and a switch pressed in Home
/// Assistant reach the virtual devices as the right bytes; a device trigger fires on a belt button press; and
/// Home Assistant neither logs a warning about our configs nor raises a repair issue. The first bridge runs with
/// `--no-fleet` (per-gateway ids, as before 0.9.0) and a config per entity; the second in a fleet, still per entity
/// (as 0.9.0), and every entity keeps its entity id; a user renames one; the one checked replaces it with the
/// defaults (a config per device, `DiscoveryMigration`), and every entity keeps its unique id and entity id, the
/// renamed one too.
@Suite(.serialized)
struct HomeAssistantLiveTests {
    /// Home Assistant's own complaints about this machine, with or without gatt2mqtt: libraries its wheels lack (a
    /// compression library; in 2025.4 the camera's JPEG library, which `GATT2MQTT_HA_VERSION` can bring).
    /// And its notice that a module logs more than 200 lines in a while, about the two INFO lines it logs for each
    /// entity the discovery migration moves to a device config (199 entities here), or the one for each entity it
    /// registers: a count, not a complaint.
    static let unrelatedWarnings = [
        "[aiohttp_fast_zlib] zlib_ng and isal are not available",
        "[homeassistant.components.camera.img_util] Error loading libturbojpeg",
        "Module homeassistant.components.mqtt.entity is logging too frequently",
        // Its INFO line for each entity it registers ("Registered new sensor.mqtt entity"): the per-gateway ones and
        // then the fleet's, about 400 here.
        "Module homeassistant.helpers.entity_registry is logging too frequently",
    ]

    @Test func homeAssistantShowsAndOperatesEveryDevice() async throws {
        try await TestWorld.with(peripheralAdapters: 12) { world in
            let belt = try await world.startSimulator(["belt"], adapter: world.peripheralAdapter(1))
            let activ5 = try await world.startSimulator(["a5"], adapter: world.peripheralAdapter(2))
            let band = try await world.startSimulator(["cpr", "--name", "CPR-01"], adapter: world.peripheralAdapter(3))
            let grip = try await world.startSimulator(["grip"], adapter: world.peripheralAdapter(4))
            let strap = try await world.startSimulator(["hr"], adapter: world.peripheralAdapter(5))
            // A device of each declared family (issue #59): their entities come from the shipped declarations, and the
            // thermometer's from docs/devices.md's worked example, in a declarations folder as a user writes it.
            var declared: [(family: String, simulator: ManagedProcess)] = []
            for (number, arguments) in [
                ["csc"], ["environment"], ["scale"], ["power"], ["rsc"], ["trainer"],
                ["thermometer", "--place", "outdoor"],
            ].enumerated() {
                let simulator = try await world.startSimulator(arguments, adapter: world.peripheralAdapter(6 + number))
                declared.append((try simulator.simulatedFamily, simulator))
            }
            let folder = world.stateFolder + "/devices.d"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let page = try String(contentsOfFile: ProjectPaths.root + "/docs/devices.md", encoding: .utf8)
            try #require(WorkedExampleEndToEndTests.declaration(in: page)).write(
                toFile: folder + "/thermometer.yaml", atomically: true, encoding: .utf8)
            let declarations = ["GATT2MQTT_DEVICES_DECLARATIONS": folder]
            let ids = (
                belt: try belt.simulatedID, a5: try activ5.simulatedID, cpr: try band.simulatedID,
                grip: try grip.simulatedID, hr: try strap.simulatedID
            )
            let recorder = try await TopicRecorder(world: world)
            let devices =
                [
                    ("belt", ids.belt), ("a5", ids.a5), ("cpr", ids.cpr), ("grip", ids.grip), ("hr", ids.hr),
                ] + (try declared.map { ($0.family, try $0.simulator.simulatedID) })
            // Twelve devices on the bridge's one adapter: seven slots more than the five it gives by default.
            let former = try await world.startBridge(
                extraArguments: [
                    "--health-seconds", "2", "--adapter-slots", "12", "--no-fleet", "--homeassistant-discovery",
                    "entity",
                ], extraEnvironment: declarations)
            for (family, id) in devices {
                try await recorder.waitFor("\(family)/\(id)/connection", timeout: .seconds(60)) {
                    $0.payloadString == "connected"
                }
            }
            let started = ContinuousClock.now
            let home = try await HomeAssistantInstance.start(brokerPort: world.broker.port)
            let startUp = ContinuousClock.now - started
            do {
                // Home Assistant has the per-gateway entities; then the bridge restarts in a fleet.
                let battery = "sensor.belt_\(ids.belt)_battery"
                _ = try await home.control(
                    ["wait-state", "--entity", battery, "--state", "unavailable", "--not", "--timeout", "60"],
                    timeout: .seconds(70))
                let registry = try #require(try await home.control(["registry"]) as? [String: Any])
                #expect(
                    (registry["entities"] as? [[String: Any]] ?? []).contains {
                        $0["entity_id"] as? String == battery
                            && $0["unique_id"] as? String == "gatt2mqtt_test_belt_\(ids.belt)_battery"
                    })
                await former.terminate()
                let restart = recorder.mark
                // With its live page, which Home Assistant's device pages link to.
                let page = "127.0.0.1:\(try FreePort.allocate())"
                let perEntity = try await world.startBridge(
                    extraArguments: [
                        "--health-seconds", "2", "--adapter-slots", "12", "--http", page, "--homeassistant-discovery",
                        "entity",
                    ], extraEnvironment: declarations)
                for (family, id) in devices {
                    try await recorder.waitFor("\(family)/\(id)/connection", after: restart, timeout: .seconds(60)) {
                        $0.payloadString == "connected"
                    }
                    // The owner comes last of a device's configs, which wait a moment after the per-gateway ones were cleared.
                    try await recorder.waitFor(
                        "homeassistant/sensor/fleet_\(family)_\(id)/owner/config", after: restart
                    ) { !$0.payload.isEmpty }
                }
                try await expectRegistered(home, recorder: recorder, renamed: [:])
                // A user gives an entity an id of their own.
                _ = try await home.control(["rename-entity", "--entity", battery, "--to", "sensor.front_belt_battery"])
                await perEntity.terminate()

                // This release's defaults: a config per device, to which every entity migrates. A release before
                // 2024.11 (`GATT2MQTT_HA_VERSION`) takes none: there the bridge stays per entity.
                let perDevice = home.takesDeviceConfigs
                let migrating = recorder.mark
                _ = try await world.startBridge(
                    extraArguments: [
                        "--health-seconds", "2", "--adapter-slots", "12", "--http", page, "--requests-privileged",
                        "true",
                    ]
                        + (perDevice ? [] : ["--homeassistant-discovery", "entity"]), extraEnvironment: declarations)
                for (family, id) in devices {
                    try await recorder.waitFor("\(family)/\(id)/connection", after: migrating, timeout: .seconds(60)) {
                        $0.payloadString == "connected"
                    }
                    let config =
                        perDevice
                        ? "homeassistant/device/fleet_\(family)_\(id)/config"
                        : "homeassistant/sensor/fleet_\(family)_\(id)/owner/config"
                    try await recorder.waitFor(config, after: migrating) { !$0.payload.isEmpty }
                }
                let gateway =
                    perDevice
                    ? "homeassistant/device/gatt2mqtt_test/config"
                    : "homeassistant/sensor/gatt2mqtt_test/version/config"
                try await recorder.waitFor(gateway, after: migrating) { !$0.payload.isEmpty }
                try await check(
                    home, recorder: recorder, belt: belt, band: band, strap: strap, ids: ids,
                    declared: Dictionary(uniqueKeysWithValues: declared.map { ($0.family, $0.simulator) }),
                    page: "http://\(page)/",
                    renamed: ["gatt2mqtt_fleet_belt_\(ids.belt)_battery": "sensor.front_belt_battery"])
                try await expectDeviceOptions(home, recorder: recorder, strap: strap)
            } catch {
                await home.stop()
                throw error
            }
            print("Home Assistant \(home.version) started and onboarded in \(startUp)")
            await home.stop()
            await recorder.stop()
        }
    }

    /// Per-device options (issue #58, item 2) over `request/options`: the strap's battery and energy hidden, and a name
    /// of its own. Home Assistant removes the battery (from a device config: its platform alone, then the config
    /// without it; per entity: an empty config) and names the device so. The energy, disabled in Home Assistant as
    /// every fast stream comes, keeps its disabled entry there (2026.2 has no entity to remove), as topics.md says.
    private func expectDeviceOptions(
        _ home: HomeAssistantInstance, recorder: TopicRecorder, strap: ManagedProcess
    ) async throws {
        let (id, address) = (try strap.simulatedID, try strap.simulatedAddress)
        let mark = recorder.mark
        try recorder.publish(
            "gatt2mqtt/test/request/options",
            #"{"options":{"devices":{"names":{"\#(address)":"Chest strap"},"entities":{"\#(address)/battery":"hidden","\#(address)/energy":"hidden"}}}}"#
        )
        let answer = try await recorder.waitFor("gatt2mqtt/test/response/options", after: mark)
        #expect(answer.payloadString?.contains(#""ok":true"#) == true, "\(answer.payloadString ?? "")")
        _ = try await home.control(
            ["wait-gone", "--unique-id-prefix", "gatt2mqtt_fleet_hr_\(id)_battery", "--timeout", "60"],
            timeout: .seconds(70))
        let registry = try #require(try await home.control(["registry"]) as? [String: Any])
        let entities = registry["entities"] as? [[String: Any]] ?? []
        #expect(
            entities.contains { $0["unique_id"] as? String == "gatt2mqtt_fleet_hr_\(id)_heart_rate" }, "the rest stay")
        #expect(
            (registry["devices"] as? [[String: Any]] ?? []).contains { $0["name"] as? String == "Chest strap" },
            "\(registry["devices"] ?? "")")
    }

    /// The declared devices as Home Assistant shows them: values read at connect (the environmental sensor's
    /// temperature, the lab thermometer's place, both as their simulators were started) and indicated (the scale's
    /// weighing), and a declared command's number entity: the thermometer's calibration set in Home Assistant is the
    /// write docs/devices.md gives.
    private func checkDeclared(_ home: HomeAssistantInstance, _ declared: [String: ManagedProcess]) async throws {
        let (environment, scale) = (
            try declared["environment"]?.simulatedID ?? "", try declared["scale"]?.simulatedID ?? ""
        )
        let thermometer = try #require(declared["thermo"])
        let thermo = try thermometer.simulatedID
        for (entity, state) in [
            ("sensor.environment_\(environment)_temperature", "21.54"), ("sensor.thermo_\(thermo)_place", "outdoor"),
            ("sensor.scale_\(scale)_measurement_weight", "72.5"),
        ] {
            _ = try await home.control(
                ["wait-state", "--entity", entity, "--state", state, "--timeout", "30"], timeout: .seconds(40))
        }
        let writes = thermometer.lineCount
        _ = try await home.control([
            "call", "number", "set_value", "--data",
            #"{"entity_id":"number.thermo_\#(thermo)_calibrate","value":-1.5}"#,
        ])
        try await thermometer.waitForLine(after: writes, timeout: .seconds(20)) {
            $0 == "WRITE 0000aa04-1234-5678-9abc-def012345678 016aff"
        }
    }

    /// What gatt2mqtt announced: the entities of the last config on each topic (an empty one removes them), from
    /// configs per entity and from the components of configs per device.
    private func announcedEntities(_ recorder: TopicRecorder) -> [(id: String, uniqueID: String, enabled: Bool)] {
        var announced: [String: String] = [:]
        for message in recorder.messages
        where message.topic.hasPrefix("homeassistant/") && message.topic.hasSuffix("/config") {
            announced[message.topic] = message.payloadString ?? ""
        }
        return announced.values.flatMap { payload -> [(id: String, uniqueID: String, enabled: Bool)] in
            guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any] else {
                return []
            }
            let members = (object["components"] as? [String: [String: Any]]).map { Array($0.values) } ?? [object]
            return members.compactMap { entity in
                guard let entityID = entity["default_entity_id"] as? String,
                    let uniqueID = entity["unique_id"] as? String
                else { return nil }
                return (entityID, uniqueID, entity["enabled_by_default"] as? Bool ?? true)
            }
        }
    }

    /// Every entity announced is in Home Assistant's registry with the entity id gatt2mqtt gave it (or the one a user
    /// gave it, `renamed` by unique id), and available while its device is connected (a disabled one has no state);
    /// nothing is left of an earlier config, and nothing is there twice. The entities, and the registry's entries.
    @discardableResult
    private func expectRegistered(_ home: HomeAssistantInstance, recorder: TopicRecorder, renamed: [String: String])
        async throws -> (entities: [(id: String, uniqueID: String, enabled: Bool)], entries: [[String: Any]])
    {
        let entities = announcedEntities(recorder)
        // topics.md's tables: belt 18, Activ5 11, CPR band 20, grip 8, heart rate 10; the declared devices an entity per
        // published value and flag bit of their declaration, their battery, a button or number per command, and the
        // connection, last error, last seen and signal strength every device has: the speed and cadence sensor 15 (4
        // measurement fields, 3 feature bits, its location, 2 commands), the environmental sensor 8 (3 readings), the
        // scale 17 (12 measurement fields), the power meter 27 (16 measurement fields, 3 flag bits, its location, 2
        // commands), the foot pod 10 (4 fields, 1 flag bit), the trainer 25 (15 fields, 5 commands), the lab thermometer
        // 10 (2 reading fields, place, samples, 1 command); an owner each; the gateway 8 (device triggers have no entity
        // id). The per-gateway configs of the first bridge were cleared.
        #expect(entities.count == 199, "\(entities.map(\.uniqueID).sorted())")
        #expect(entities.allSatisfy { !$0.uniqueID.hasPrefix("gatt2mqtt_test_belt_") }, "\(entities)")
        // Every enabled one available, waited for in one hactl process (a process an entity took about a minute).
        let enabled = entities.filter(\.enabled).flatMap { ["--entity", renamed[$0.uniqueID] ?? $0.id] }
        _ = try await home.control(
            ["wait-state"] + enabled + ["--state", "unavailable", "--not", "--timeout", "120"], timeout: .seconds(130))
        let registry = try #require(try await home.control(["registry"]) as? [String: Any])
        let entries = registry["entities"] as? [[String: Any]] ?? []
        let registered = entries.compactMap { entry -> (String, String)? in
            guard let id = entry["entity_id"] as? String, let unique = entry["unique_id"] as? String else { return nil }
            return (unique, id)
        }
        let byUniqueID = Dictionary(registered, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            let expected = renamed[entity.uniqueID] ?? entity.id
            #expect(
                byUniqueID[entity.uniqueID] == expected,
                "\(entity.uniqueID) is \(byUniqueID[entity.uniqueID] ?? "missing"), not \(expected)")
        }
        // Each entity id went from the per-gateway entity to the fleet's one: no `_2`, no entity left behind.
        let leftBehind = registered.filter { unique, _ in
            unique.hasPrefix("gatt2mqtt_") && !entities.contains { $0.uniqueID == unique }
        }
        #expect(leftBehind.isEmpty, "\(leftBehind)")
        return (entities, entries)
    }

    private func check(
        _ home: HomeAssistantInstance, recorder: TopicRecorder, belt: ManagedProcess, band: ManagedProcess,
        strap: ManagedProcess, ids: (belt: String, a5: String, cpr: String, grip: String, hr: String),
        declared: [String: ManagedProcess], page: String, renamed: [String: String]
    ) async throws {
        let (entities, entries) = try await expectRegistered(home, recorder: recorder, renamed: renamed)
        // The fast streams (heading, force, the band's depth, rate, angle, distance) and every device's signal strength
        // and last seen are there, disabled by the integration: Home Assistant records none of their values until a
        // user enables them.
        let disabledByIntegration = Set(
            entries.filter { $0["disabled_by"] as? String == "integration" }.compactMap { $0["entity_id"] as? String })
        #expect(Set(entities.filter { !$0.enabled }.map(\.id)) == disabledByIntegration)
        for fast in [
            "sensor.belt_\(ids.belt)_heading", "sensor.a5_\(ids.a5)_force", "sensor.cpr_\(ids.cpr)_angle",
            "sensor.cpr_\(ids.cpr)_rate",
            "sensor.belt_\(ids.belt)_rssi", "sensor.a5_\(ids.a5)_last_seen", "sensor.hr_\(ids.hr)_heart_rate",
            "sensor.hr_\(ids.hr)_energy",
        ] {
            #expect(disabledByIntegration.contains(fast), "\(fast) is disabled by default")
        }
        let registry = try #require(try await home.control(["registry"]) as? [String: Any])
        let devices = registry["devices"] as? [[String: Any]] ?? []
        let beltDevice = try #require(
            devices.first {
                ($0["identifiers"] as? [[String]])?.contains(["mqtt", "gatt2mqtt_fleet_belt_\(ids.belt)"]) == true
            })
        #expect(beltDevice["sw_version"] as? String != nil, "the belt's firmware is on its device page")
        #expect(beltDevice["configuration_url"] as? String == page, "the belt's device page links to the live page")
        let gatewayDevice = try #require(
            devices.first { ($0["identifiers"] as? [[String]])?.contains(["mqtt", "gatt2mqtt_test"]) == true })
        #expect(gatewayDevice["configuration_url"] as? String == page)

        // The gateway's device: its version (retained, so known at once), its twelve connected devices.
        _ = try await home.control(
            [
                "wait-state", "--entity", "sensor.gatt2mqtt_test_version", "--state", try ProjectPaths.version(),
                "--timeout", "30",
            ], timeout: .seconds(40))
        _ = try await home.control(
            ["wait-state", "--entity", "sensor.gatt2mqtt_test_connected_devices", "--state", "12", "--timeout", "30"],
            timeout: .seconds(40))

        // A button: Stop vibration writes FE03 30 FF to the belt.
        let beltWrites = belt.lineCount
        _ = try await home.control([
            "call", "button", "press", "--data", #"{"entity_id":"button.belt_\#(ids.belt)_stop_vibration"}"#,
        ])
        try await belt.waitForLine(after: beltWrites, timeout: .seconds(20)) {
            $0.hasPrefix("WRITE ") && $0.hasSuffix(" 30ff")
        }

        // The heart rate sensor: its skin contact and where it is worn, and Reset energy writes 01 to its control point.
        _ = try await home.control(
            ["wait-state", "--entity", "binary_sensor.hr_\(ids.hr)_contact", "--state", "on", "--timeout", "30"],
            timeout: .seconds(40))
        _ = try await home.control(
            ["wait-state", "--entity", "sensor.hr_\(ids.hr)_location", "--state", "chest", "--timeout", "30"],
            timeout: .seconds(40))
        let strapWrites = strap.lineCount
        _ = try await home.control([
            "call", "button", "press", "--data", #"{"entity_id":"button.hr_\#(ids.hr)_reset_energy"}"#,
        ])
        try await strap.waitForLine(after: strapWrites, timeout: .seconds(20)) {
            $0 == HeartRateEndToEndTests.controlPointWrite
        }

        try await checkDeclared(home, declared)

        // A select: the band's mode to practicing writes F3, and the select follows the band.
        let bandWrites = band.lineCount
        let practice = recorder.mark
        _ = try await home.control([
            "call", "select", "select_option", "--data",
            #"{"entity_id":"select.cpr_\#(ids.cpr)_mode","option":"practicing"}"#,
        ])
        try await band.waitForLine(after: bandWrites, timeout: .seconds(20)) {
            $0.hasPrefix("WRITE ") && $0.hasSuffix(" f3")
        }
        _ = try await home.control(
            ["wait-state", "--entity", "select.cpr_\(ids.cpr)_mode", "--state", "practicing", "--timeout", "30"],
            timeout: .seconds(40))
        // Back to ready after two compressions (a rate needs two): the practice's summary reaches its sensors.
        try await recorder.waitFor("cpr/\(ids.cpr)/stats", after: practice) { message in
            let stats =
                try? JSONSerialization.jsonObject(with: Data((message.payloadString ?? "").utf8)) as? [String: Any]
            return (stats?["count"] as? Int ?? 0) >= 2
        }
        _ = try await home.control([
            "call", "select", "select_option", "--data",
            #"{"entity_id":"select.cpr_\#(ids.cpr)_mode","option":"ready"}"#,
        ])
        for sensor in ["session_compressions", "session_in_range", "session_depth", "session_rate"] {
            let state = try await home.control(
                [
                    "wait-state", "--entity", "sensor.cpr_\(ids.cpr)_\(sensor)", "--state", "unknown", "--not",
                    "--timeout", "30",
                ], timeout: .seconds(40))
            #expect(Double((state as? [String: Any])?["state"] as? String ?? "") != nil, "\(sensor): \(state)")
        }
        // What the batteries tell besides their level: the belt runs on battery, the grip's is not low.
        _ = try await home.control(
            ["wait-state", "--entity", "binary_sensor.belt_\(ids.belt)_charging", "--state", "off", "--timeout", "30"],
            timeout: .seconds(40))
        let timeToEmpty = try await home.control(
            [
                "wait-state", "--entity", "sensor.belt_\(ids.belt)_time_to_empty", "--state", "unknown", "--not",
                "--timeout", "30",
            ], timeout: .seconds(40))
        #expect(Double((timeToEmpty as? [String: Any])?["state"] as? String ?? "") != nil, "\(timeToEmpty)")
        _ = try await home.control(
            [
                "wait-state", "--entity", "binary_sensor.grip_\(ids.grip)_battery_low", "--state", "off", "--timeout",
                "30",
            ], timeout: .seconds(40))

        // A switch with state: the Activ5's force stream on, and Home Assistant sees it streaming.
        _ = try await home.control([
            "call", "switch", "turn_on", "--data", #"{"entity_id":"switch.a5_\#(ids.a5)_stream"}"#,
        ])
        _ = try await home.control(
            ["wait-state", "--entity", "switch.a5_\(ids.a5)_stream", "--state", "on", "--timeout", "30"],
            timeout: .seconds(40))

        // A device trigger: the belt's compass button, pressed on the belt, fires an automation.
        let automation = try #require(
            try await home.control([
                "add-trigger-automation", "--device-identifier", "gatt2mqtt_fleet_belt_\(ids.belt)", "--type",
                "button_short_press", "--subtype", "compass",
            ]) as? [String: Any])
        let automationID = try #require(automation["automation"] as? String)
        let triggered = try await home.compassPressFires(automationID, belt: belt, recorder: recorder, id: ids.belt)
        #expect(triggered, "the compass button's device trigger fired")

        // The belt leaves: its entities are unavailable in Home Assistant.
        await belt.terminate()
        _ = try await home.control(
            ["wait-state", "--entity", "sensor.front_belt_battery", "--state", "unavailable", "--timeout", "60"],
            timeout: .seconds(70))
        _ = try await home.control(
            [
                "wait-state", "--entity", "button.belt_\(ids.belt)_stop_vibration", "--state", "unavailable",
                "--timeout", "30",
            ], timeout: .seconds(40))
        // But its Connection, which says it is away.
        _ = try await home.control(
            [
                "wait-state", "--entity", "binary_sensor.belt_\(ids.belt)_connection", "--state", "off", "--timeout",
                "30",
            ], timeout: .seconds(40))

        // Nothing of ours in Home Assistant's repairs or among its warnings.
        let repairs = try #require(try await home.control(["repairs"]) as? [[String: Any]])
        let ours = repairs.filter { ($0["domain"] as? String) == "mqtt" || "\($0)".contains("gatt2mqtt") }
        #expect(ours.isEmpty, "\(ours)")
        // Any warning or error but those Home Assistant logs on this machine whatever it is fed.
        let complaints = home.complaints(ignoring: Self.unrelatedWarnings)
        #expect(complaints.isEmpty, "\(complaints.joined(separator: "\n"))")
        #expect(
            !home.log.contains("Attempting install"),
            "the installation had every requirement: nothing is fetched at start")

        let families = Dictionary(
            grouping: entities, by: { String($0.id.split(separator: ".")[1].split(separator: "_")[0]) }
        ).mapValues(\.count)
        print("Home Assistant \(home.version): entities by family \(families.sorted { $0.key < $1.key })")
    }
}
