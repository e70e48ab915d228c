import Bridge
import Foundation
import TestSupport
import Testing

@testable import DaemonConfiguration

/// The broker ACL recipes the project ships name every family a gateway serves out of the box: the written ones and
/// the standard profiles shipped as declarations. mosquitto drops a publish its ACL does not allow without telling the
/// client, so a family missing from a recipe is a device whose topics stay empty on that broker, and nothing says why.
/// (The fleet's recipe had no `hr` lines, and no recipe had the declared families, until this test.)
struct BrokerACLRecipesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Each family's topic base: the registry's, then each shipped declaration's `family`.
    static func servedFamilies() throws -> [String] {
        let folder = root.appendingPathComponent("declarations")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
        let declared = try files.sorted().map { name in
            let file = folder.appendingPathComponent(name)
            return try DeclarationReader.read(
                try String(contentsOf: file, encoding: .utf8), file: name,
                takenFamilies: Set(DeviceFamily.allCases.map(\.rawValue))
            ).family
        }
        return DeviceFamily.allCases.map(\.rawValue) + declared
    }

    /// An ACL file's `topic` lines by the `user` they follow, as mosquitto reads them (comments and blank lines aside).
    static func rules(_ acl: String) -> [String: Set<String>] {
        var rules: [String: Set<String>] = [:]
        var user = ""
        for line in acl.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("user ") {
                user = String(line.dropFirst(5))
                rules[user, default: []] = []
            } else if line.hasPrefix("topic ") {
                rules[user, default: []].insert(line)
            }
        }
        return rules
    }

    /// The lines `families` need: the gateway's users publish and follow device topics; the others command them.
    static func missing(in acl: String, gateways: [String], commanders: [String], families: [String]) -> [String] {
        let rules = rules(acl)
        var missing: [String] = []
        for family in families {
            for gateway in gateways {
                for line in ["topic readwrite \(family)/+/+", "topic read \(family)/+/cmd/+"]
                where rules[gateway]?.contains(line) != true {
                    missing.append("\(gateway): \(line)")
                }
            }
            for commander in commanders where rules[commander]?.contains("topic write \(family)/+/cmd/#") != true {
                missing.append("\(commander): topic write \(family)/+/cmd/#")
            }
        }
        return missing
    }

    @Test func theRecipesNameEveryFamilyAGatewayServes() throws {
        let families = try Self.servedFamilies()
        #expect(families.count == 11 && families.contains("hr") && families.contains("fitness_machine"), "\(families)")
        // The README's "Securing the broker" recipe (OpenBrokerTests keeps docker/mosquitto/acl equal to it).
        let recipe = try ReadmeBlocks.block(under: "Securing the broker").joined(separator: "\n")
        let shipped = [
            ("README.md", recipe, ["gatt2mqtt"], ["operator", "homeassistant"]),
            (
                "docker/mosquitto/acl",
                try String(contentsOf: Self.root.appendingPathComponent("docker/mosquitto/acl"), encoding: .utf8),
                ["gatt2mqtt"], ["operator", "homeassistant"]
            ),
            (
                "examples/mosquitto-fleet.acl",
                try String(
                    contentsOf: Self.root.appendingPathComponent("examples/mosquitto-fleet.acl"), encoding: .utf8),
                ["kitchen"], ["dashboard", "homeassistant"]
            ),
        ]
        for (name, acl, gateways, commanders) in shipped {
            #expect(!Self.rules(acl).isEmpty, "\(name) has users")
            let missing = Self.missing(in: acl, gateways: gateways, commanders: commanders, families: families)
            #expect(missing.isEmpty, "\(name) lacks \(missing)")
        }
    }

    /// The check itself finds a missing line (the fleet recipe as it was, without `hr`).
    @Test func aRecipeWithoutAFamilyIsCaught() {
        let acl = """
            user kitchen
            topic readwrite belt/+/+
            topic read belt/+/cmd/+
            user dashboard
            topic write belt/+/cmd/#
            """
        #expect(Self.missing(in: acl, gateways: ["kitchen"], commanders: ["dashboard"], families: ["belt"]).isEmpty)
        #expect(
            Self.missing(in: acl, gateways: ["kitchen"], commanders: ["dashboard"], families: ["belt", "hr"]) == [
                "kitchen: topic readwrite hr/+/+", "kitchen: topic read hr/+/cmd/+",
                "dashboard: topic write hr/+/cmd/#",
            ])
    }
}
