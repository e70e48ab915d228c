import Foundation
import MQTT
import TestSupport
import Testing

/// TLS with certificates made here, a password file and an ACL on a real mosquitto.
@Suite(.serialized)
struct SecurityTests {
    /// A CA, a server certificate for 127.0.0.1 signed by it, and an unrelated CA.
    struct Certificates {
        let directory: String
        var ca: String { directory + "/ca.pem" }
        var otherCA: String { directory + "/other-ca.pem" }
        var serverCertificate: String { directory + "/server.pem" }
        var serverKey: String { directory + "/server.key" }

        static func make() async throws -> Certificates {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                "g2m-tls-\(UUID().uuidString.prefix(8))"
            ).path
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let steps: [[String]] = [
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                    "-subj", "/CN=gatt2mqtt test CA",
                    "-keyout", directory + "/ca.key", "-out", directory + "/ca.pem",
                ],
                [
                    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
                    "-subj", "/CN=someone else",
                    "-keyout", directory + "/other-ca.key", "-out", directory + "/other-ca.pem",
                ],
                [
                    "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-subj",
                    "/CN=127.0.0.1", "-keyout", directory + "/server.key",
                    "-out", directory + "/server.csr",
                ],
                [
                    "x509", "-req", "-in", directory + "/server.csr", "-CA", directory + "/ca.pem", "-CAkey",
                    directory + "/ca.key",
                    "-CAcreateserial", "-days", "2", "-out", directory + "/server.pem", "-extfile",
                    directory + "/san.cnf",
                ],
            ]
            try "subjectAltName=IP:127.0.0.1\n".write(toFile: directory + "/san.cnf", atomically: true, encoding: .utf8)
            for step in steps {
                let openssl = try ManagedProcess.launch("openssl", arguments: step, name: "openssl")
                guard try await openssl.waitForExit(timeout: .seconds(60)) == .exited(0) else {
                    throw WorldFailure(description: openssl.outputText)
                }
            }
            return Certificates(directory: directory)
        }
    }

    static let password = "s3cret-bridge-pw"

    /// The ACL of README.md's "Securing the broker", word for word: the recipe is what runs here.
    static func readmeACL() throws -> String {
        let acl = try ReadmeBlocks.block(under: "Securing the broker").joined(separator: "\n") + "\n"
        #expect(
            acl.contains("user gatt2mqtt") && acl.contains("user operator") && acl.contains("user dashboard")
                && acl.contains("user admin"), "\(acl)")
        return acl
    }

    static let users = [
        "gatt2mqtt": password, "operator": "operator-pw", "dashboard": "dashboard-pw",
        "homeassistant": "homeassistant-pw", "admin": "admin-pw",
    ]

    private func broker(_ certificates: Certificates) throws -> MosquittoBroker.Options {
        var options = MosquittoBroker.Options()
        options.allowAnonymous = false
        options.users = Self.users
        let acl = certificates.directory + "/acl"
        try Self.readmeACL().write(toFile: acl, atomically: true, encoding: .utf8)
        options.extraConfiguration = [
            "cafile \(certificates.ca)", "certfile \(certificates.serverCertificate)",
            "keyfile \(certificates.serverKey)",
            "acl_file \(acl)",
        ]
        return options
    }

    /// Starts the daemon from a configuration file (TLS, user, password file) in the world.
    private func startBridge(_ world: TestWorld, ca: String, password: String, directory: String) throws
        -> ManagedProcess
    {
        try password.write(toFile: directory + "/password", atomically: true, encoding: .utf8)
        try """
        broker:
          url: mqtts://127.0.0.1:\(world.broker.port)
          username: gatt2mqtt
          password_file: password
          tls:
            ca_file: \(ca)
        gateway: {name: test}
        adapter: hci0
        devices: {auto_connect: all}
        log_level: debug
        health_s: 1
        limits: {restart_holdoff_s: 0}
        """.write(toFile: directory + "/gatt2mqtt.yaml", atomically: true, encoding: .utf8)
        return try world.launch(
            ProjectPaths.binary("gatt2mqtt"), ["--config", directory + "/gatt2mqtt.yaml"], name: "gatt2mqtt")
    }

    private func client(_ world: TestWorld, _ certificates: Certificates, user: String, password: String) async throws
        -> TopicRecorder
    {
        var configuration = try MQTTConfiguration(url: "mqtts://127.0.0.1:\(world.broker.port)")
        configuration.tls = MQTTTLSConfiguration(caFile: certificates.ca)
        configuration.username = user
        configuration.password = password
        return try await TopicRecorder(configuration: configuration)
    }

    /// A gateway behind TLS, passwords and the README's ACL, with a connected virtual belt and a client per user.
    struct SecuredBelt {
        let world: TestWorld
        let belt: ManagedProcess
        let id: String
        let daemon: ManagedProcess
        let operatorClient: TopicRecorder
        let dashboard: TopicRecorder
        let homeAssistant: TopicRecorder
        /// For a client started later (the admin).
        let certificates: Certificates
    }

    /// Runs `body` once the gateway has connected the belt; the clients stop after it, the world with it.
    private func withSecuredBelt(_ body: (SecuredBelt) async throws -> Void) async throws {
        let certificates = try await Certificates.make()
        defer { try? FileManager.default.removeItem(atPath: certificates.directory) }
        try await TestWorld.with(broker: try broker(certificates)) { world in
            let belt = try await world.startSimulator(["belt"])
            let id = try belt.simulatedID
            let secured = SecuredBelt(
                world: world, belt: belt, id: id,
                daemon: try startBridge(
                    world, ca: certificates.ca, password: Self.password, directory: certificates.directory),
                operatorClient: try await client(world, certificates, user: "operator", password: "operator-pw"),
                dashboard: try await client(world, certificates, user: "dashboard", password: "dashboard-pw"),
                homeAssistant: try await client(
                    world, certificates, user: "homeassistant", password: "homeassistant-pw"),
                certificates: certificates)
            try await withCleanUp({
                for client in [secured.operatorClient, secured.dashboard, secured.homeAssistant] { await client.stop() }
            }) {
                try await secured.dashboard.waitFor("belt/\(id)/connection") { $0.payloadString == "connected" }
                try await body(secured)
            }
        }
    }

    @Test func tlsAndPasswordsWorkAndAReadOnlyUserCannotMakeTheBridgeWrite() async throws {
        try await withSecuredBelt { secured in
            let (belt, id, dashboard) = (secured.belt, secured.id, secured.dashboard)
            // The dashboard may read but not command: the broker drops its command, so nothing reaches the belt.
            let before = belt.lineCount
            try dashboard.publish("belt/\(id)/cmd/vibrate", #"{"direction":45,"switch_to_app":true}"#)
            try secured.operatorClient.publish("belt/\(id)/cmd/vibrate", #"{"direction":90,"switch_to_app":true}"#)
            try await belt.waitForLine(after: before) {
                $0.hasPrefix("WRITE 0000fe03-0000-1000-8000-00805f9b34fb 0201aaaa0000035a00")
            }
            try await belt.caughtUp()
            let vibrations = belt.lines.dropFirst(before).filter { $0.text.hasPrefix("WRITE 0000fe03") }
            #expect(vibrations.count == 1, "only the operator's command ran: \(vibrations.map(\.text))")
            #expect(
                try await dashboard.waitFor("belt/\(id)/heading").payloadString != nil,
                "the dashboard still reads telemetry")
            #expect(!secured.daemon.outputText.contains(Self.password), "the password is never logged")
        }
    }

    /// Issue #43, item 5: a command sender named another system's command topic as the response topic, and the
    /// gateway wrote there with its own rights. With the README's ACL the gateway may write only its own topics
    /// and the reply space, and everything it publishes still goes through.
    @Test func theGatewayWritesOnlyItsOwnTopicsAndTheReplySpace() async throws {
        try await withSecuredBelt { secured in
            let (id, operatorClient, dashboard) = (secured.id, secured.operatorClient, secured.dashboard)
            // A response topic outside the reply space gets nothing; the answer goes to the device's reply topic.
            try operatorClient.publish(
                "belt/\(id)/cmd/mode", #"{"mode":"app","transaction":"plug"}"#, responseTopic: "cmnd/plug/POWER")
            let fallback = try await dashboard.waitFor("belt/\(id)/reply") {
                $0.payloadString?.contains(#""transaction":"plug""#) == true
            }
            #expect(fallback.payloadString == #"{"command":"mode","ok":true,"transaction":"plug"}"#)
            // One inside it is answered there, with the correlation data.
            try operatorClient.publish(
                "belt/\(id)/cmd/mode", #"{"mode":"app"}"#, responseTopic: "reply/operator/1", correlation: [0x2A])
            let answer = try await operatorClient.waitFor("reply/operator/1")
            #expect(answer.payloadString == #"{"command":"mode","ok":true}"# && answer.correlationData == [0x2A])
            #expect(
                dashboard.messages(on: "cmnd/plug/POWER").isEmpty, "the gateway wrote nothing on the stranger's topic")

            // Everything the gateway publishes still goes through: device state, Home Assistant's configs (again after
            // its birth message), the gateway's health and inventory.
            let beltConfig = "homeassistant/device/fleet_belt_\(id)/config"
            try await dashboard.waitFor(beltConfig)
            let birth = dashboard.mark
            try secured.homeAssistant.publish("homeassistant/status", "online")
            try await dashboard.waitFor(beltConfig, after: birth)
            for topic in ["gatt2mqtt/test/health", "gatt2mqtt/test/devices", "belt/\(id)/info", "belt/\(id)/heading"] {
                try await dashboard.waitFor(topic)
            }
            // The broker logs what its ACL denies (here the dashboard's attempt); it denied the gateway nothing.
            let broker = try #require(secured.world.broker.process)
            try dashboard.publish("homeassistant/status", "online")
            try await broker.waitForLine(containing: "Denied PUBLISH from \(dashboard.client.configuration.clientID) ")
            #expect(
                !broker.outputText.contains("Denied PUBLISH from gatt2mqtt-test "),
                "the ACL refused the gateway a topic it publishes")
        }
    }

    /// Issue #46: changing options and restarting are privileged. The operator's `request/options` and
    /// `request/restart` are dropped by the broker (it manages devices, not gateways); the admin's restart is
    /// answered, and the gateway stops cleanly with exit status 75, which its supervisor restarts (under systemd: the
    /// installed tier).
    @Test func onlyTheAdminMayChangeOptionsOrRestartTheGateway() async throws {
        try await withSecuredBelt { secured in
            let (id, operatorClient, dashboard) = (secured.id, secured.operatorClient, secured.dashboard)
            let broker = try #require(secured.world.broker.process)
            let denied = "Denied PUBLISH from \(operatorClient.client.configuration.clientID) "
            for (request, payload) in [("options", #"{"options":{"health_s":5}}"#), ("restart", "{}")] {
                let before = broker.lineCount
                try operatorClient.publish("gatt2mqtt/test/request/\(request)", payload)
                try await broker.waitForLine(after: before) { $0.contains(denied) && $0.contains("request/\(request)") }
            }
            // The operator still manages devices: its `devices` request, sent after, is answered, and the gateway runs.
            try operatorClient.publish("gatt2mqtt/test/request/devices", "{}")
            try await dashboard.waitFor("gatt2mqtt/test/response/devices")
            #expect(secured.daemon.isRunning)
            #expect(dashboard.messages(on: "gatt2mqtt/test/response/restart").isEmpty)
            #expect(dashboard.messages(on: "gatt2mqtt/test/response/options").isEmpty)

            let admin = try await client(
                secured.world, secured.certificates, user: "admin", password: "admin-pw")
            try await withCleanUp({ await admin.stop() }) {
                try admin.publish("gatt2mqtt/test/request/restart", #"{"transaction":"r1"}"#)
                let answer = try await dashboard.waitFor("gatt2mqtt/test/response/restart")
                #expect(
                    answer.payloadString
                        == #"{"data":{"restarting":true},"ok":true,"request":"restart","transaction":"r1"}"#)
                #expect(try await secured.daemon.waitForExit(timeout: .seconds(20)) == .exited(75))
                try await dashboard.waitFor("belt/\(id)/connection") { $0.payloadString == "disconnected" }
                try await dashboard.waitFor("gatt2mqtt/test/status") { $0.payloadString == "offline" }
            }
        }
    }

    @Test(arguments: ["wrong CA", "wrong password"])
    func aWrongCAOrPasswordIsAClearStartupError(fault: String) async throws {
        let certificates = try await Certificates.make()
        defer { try? FileManager.default.removeItem(atPath: certificates.directory) }
        try await TestWorld.with(broker: try broker(certificates)) { world in
            let daemon = try startBridge(
                world, ca: fault == "wrong CA" ? certificates.otherCA : certificates.ca,
                password: fault == "wrong password" ? "not-the-password" : Self.password,
                directory: certificates.directory)
            let exit = try await daemon.waitForExit(timeout: .seconds(20))
            #expect(exit != .exited(0))
            let log = daemon.outputText
            #expect(log.contains("cannot use the broker"), "\(log)")
            #expect(
                fault == "wrong CA"
                    ? log.lowercased().contains("tls") || log.lowercased().contains("certificate")
                    : log.contains("refused"))
            #expect(!log.contains(Self.password) && !log.contains("not-the-password"))
        }
    }
}
