import Foundation
import MQTT
import TestSupport
import Testing

/// Safe when the broker is open (issue #56, item 4), over a real mosquitto: on a broker that lets anyone in, anyone
/// could send `request/options` with `auto_connect: all` (kept across restarts) or `request/restart`, and the shipped
/// `docker/compose.yml` ran such a broker. The compose's broker now lets in only its users, with the README's ACL; a
/// gateway that reaches a broker without credentials takes no privileged request unless told to, and then warns.
@Suite(.serialized)
struct OpenBrokerTests {
    /// On a broker that lets anyone in, a gateway without credentials refuses `options` (`not_permitted`) and keeps
    /// its settings; told to take them (`--requests-privileged true`), it does, and warns at start and in `info`.
    @Test func anOpenBrokersClientsCannotChangeTheGatewayUnlessItIsToldSo() async throws {
        try await TestWorld.with { world in
            let recorder = try await TopicRecorder(world: world)
            // What the gateway may keep from options; `auto_connect` here is the flag's, which options never override.
            let change = #"{"options":{"health_s":30}}"#
            let first = try await world.startBridge(extraArguments: ["--auto-connect", "adopted"])
            var mark = recorder.mark
            try recorder.publish("gatt2mqtt/test/request/options", change)
            let refused = try await recorder.waitFor("gatt2mqtt/test/response/options", after: mark)
            print("FIGURE open broker, request/options: \(refused.payloadString ?? "")")
            #expect(
                refused.payloadString?.contains(#""code":"not_permitted""#) == true, "\(refused.payloadString ?? "")")
            let info = try await recorder.waitFor("gatt2mqtt/test/info")
            #expect(info.payloadString?.contains(#""privileged_requests":false"#) == true)
            #expect(info.payloadString?.contains(#""health_s":60"#) == true, "unchanged")
            #expect(!first.outputText.contains("privileged requests (options, rename, restore, restart) are taken"))
            await first.terminate()

            mark = recorder.mark
            let second = try await world.startBridge(
                extraArguments: ["--auto-connect", "adopted", "--requests-privileged", "true"])
            try await second.waitForLine(
                containing: "privileged requests (options, rename, restore, restart) are taken")
            let warned = try await recorder.waitFor("gatt2mqtt/test/info", after: mark) {
                $0.payloadString?.contains(#""warnings":["privileged requests"#) == true
            }
            #expect(warned.payloadString?.contains(#""privileged_requests":true"#) == true)
            mark = recorder.mark
            try recorder.publish("gatt2mqtt/test/request/options", change)
            let taken = try await recorder.waitFor("gatt2mqtt/test/response/options", after: mark)
            #expect(taken.payloadString?.contains(#""ok":true"#) == true, "\(taken.payloadString ?? "")")
        }
    }

    /// The broker `docker/compose.yml` runs, from its own files (docker/mosquitto: mosquitto.conf, the README's ACL),
    /// on this test's port and paths: nobody gets in without a password, and the gateway, configured as the compose
    /// configures it (its user, its password from the environment), logs in and takes its privileged requests
    /// without a warning. (The compose itself runs in the installed tier: `theComposeFileRunsAsTheReadmeSays`.)
    @Test func theComposeBrokerLetsOnlyItsUsersIn() async throws {
        let folder = ProjectPaths.root + "/docker/mosquitto"
        let shipped = try String(contentsOfFile: folder + "/mosquitto.conf", encoding: .utf8)
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(shipped.contains("allow_anonymous false"))
        #expect(shipped.contains("password_file /mosquitto/config/passwords"))
        #expect(shipped.contains("acl_file /mosquitto/config/acl"))
        var options = MosquittoBroker.Options()
        options.allowAnonymous = false
        options.users = ["gatt2mqtt": "gateway-pw", "admin": "admin-pw", "dashboard": "dashboard-pw"]
        // The shipped lines but those the test broker writes itself (listener, anonymous, passwords, persistence), and
        // the shipped ACL file where the container has it.
        options.extraConfiguration =
            shipped.filter {
                !["listener", "allow_anonymous", "password_file", "persistence"].contains(where: $0.hasPrefix)
            }.map { $0.replacingOccurrences(of: "/mosquitto/config/acl", with: folder + "/acl") }
        #expect(options.extraConfiguration == ["acl_file \(folder)/acl"])
        try await TestWorld.with(broker: options) { world in
            let anonymous = try MQTTClient(configuration: try MQTTConfiguration(url: world.broker.url))
            anonymous.start()
            await #expect(throws: MQTTError.self) { try await anonymous.connected(timeout: .seconds(10)) }
            await anonymous.stop()

            var admin = try MQTTConfiguration(url: world.broker.url)
            (admin.username, admin.password) = ("admin", "admin-pw")
            let recorder = try await TopicRecorder(configuration: admin)
            try await withCleanUp({ await recorder.stop() }) {
                let gateway = try await world.startBridge(
                    gateway: "docker",
                    extraEnvironment: [
                        "GATT2MQTT_BROKER_USERNAME": "gatt2mqtt", "GATT2MQTT_BROKER_PASSWORD": "gateway-pw",
                    ])
                let info = try await recorder.waitFor("gatt2mqtt/docker/info")
                #expect(info.payloadString?.contains(#""privileged_requests":true"#) == true)
                #expect(info.payloadString?.contains("warnings") == false)
                #expect(
                    !gateway.outputText.contains("privileged requests (options, rename, restore, restart) are taken"))
            }
        }
    }

    /// No password oracle (issue #56, items 3 and 7), on the daemon over a broker with users: a command whose text is
    /// the gateway's broker password and one with a wrong guess give log lines, on the log topic and in the journal,
    /// that differ only in the guess. When the password showed as `<redacted>`, whoever could send commands and read
    /// the log learnt which guess was right.
    @Test func aCommandHoldingThePasswordIsLoggedAsOneWithAWrongGuess() async throws {
        let (password, guess) = ("hunter2-broker", "hunter3-broker")
        var options = MosquittoBroker.Options()
        options.allowAnonymous = false
        options.users = ["gatt2mqtt": password, "probe": "probe-pw"]
        try await TestWorld.with(broker: options) { world in
            var probe = try MQTTConfiguration(url: world.broker.url)
            (probe.username, probe.password) = ("probe", "probe-pw")
            let recorder = try await TopicRecorder(configuration: probe)
            try await withCleanUp({ await recorder.stop() }) {
                let gateway = try await world.startBridge(
                    extraEnvironment: ["GATT2MQTT_BROKER_USERNAME": "gatt2mqtt", "GATT2MQTT_BROKER_PASSWORD": password])
                var published: [String] = []
                var journal: [String] = []
                for text in [password, guess] {
                    let (mark, lines) = (recorder.mark, gateway.lineCount)
                    try recorder.publish("belt/001122334455/cmd/vibrate", #"{"pattern":"\#(text)"}"#)
                    let line = try await recorder.waitFor("gatt2mqtt/test/log", after: mark) {
                        $0.payloadString?.contains("command refused") == true
                    }
                    // Without its time: the two were logged at different moments.
                    published.append(
                        (line.payloadString ?? "").replacingOccurrences(
                            of: #""time":"[^"]*""#, with: "", options: .regularExpression))
                    let logged = try await gateway.waitForLine(containing: "command refused", after: lines)
                    journal.append(String(logged.drop { $0 != " " }))
                }
                print("FIGURE password oracle, the log topic's two lines: \(published[0]) | \(published[1])")
                #expect(published[0].contains("'\(password)' is unknown"), "logged as it came: \(published[0])")
                #expect(
                    published[0].replacingOccurrences(of: password, with: guess) == published[1],
                    "the two differ in the guess only: \(published)")
                #expect(
                    journal[0].replacingOccurrences(of: password, with: guess) == journal[1],
                    "the two differ in the guess only: \(journal)")
                #expect(!(published + journal).contains { $0.contains("redacted") }, "nothing replaced")
            }
        }
    }

    /// The compose's ACL is the README's recipe, and the compose mounts the broker's files and logs the gateway in.
    @Test func theComposeRunsTheREADMEsRecipe() throws {
        let folder = ProjectPaths.root + "/docker"
        let acl = try String(contentsOfFile: folder + "/mosquitto/acl", encoding: .utf8)
        // The file's own header, up to its first empty line, then the recipe.
        let rules = try #require(acl.firstRange(of: "\n\n").map { acl[$0.upperBound...] })
        let recipe = try SecurityTests.readmeACL()
        #expect(rules.trimmingCharacters(in: .newlines) == recipe.trimmingCharacters(in: .newlines))
        let compose = try String(contentsOfFile: folder + "/compose.yml", encoding: .utf8)
        for line in [
            "./mosquitto/mosquitto.conf:/mosquitto/config/mosquitto.conf:ro",
            "./mosquitto/acl:/mosquitto/config/acl:ro",
            "source: ./mosquitto/passwords", "target: /mosquitto/config/passwords", "create_host_path: false",
            "GATT2MQTT_BROKER_USERNAME: gatt2mqtt", "env_file: gatt2mqtt.env",
        ] {
            #expect(compose.contains(line), "\(line)")
        }
        #expect(!compose.contains("mosquitto-no-auth.conf"))
    }
}
