import Foundation
import TestSupport
import Testing

@testable import Bridge

/// topics.md's tables say which of a device's topics are retained; the families declare the same leaves
/// (`FamilyDriver.retainedLeaves`), and a renamed device's are all cleared under its old id by that declaration.
/// A leaf the tables call retained that a family does not declare would stay behind on the broker after a rename,
/// naming the device by a name it no longer has.
struct RetainedLeavesDocumentTests {
    /// The retained leaves topics.md's rows give each family (`| `belt/<id>/mode` | … | yes | 1 | … |`), and those
    /// of every device (`<family>/<id>/…`) under the key "".
    static func documented() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: ProjectPaths.root + "/topics.md", encoding: .utf8)
        var leaves: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") {
            guard let row = line.firstMatch(of: /^\| `([a-z0-9<>]+)\/<id>\/([a-z_]+)` \|/) else { continue }
            let columns = line.split(separator: " | ", omittingEmptySubsequences: false)
            guard columns.count >= 4, columns[2] == "yes" else { continue }
            let family = row.output.1 == "<family>" ? "" : String(row.output.1)
            leaves[family, default: []].insert(String(row.output.2))
        }
        return leaves
    }

    @Test func everyFamilyDeclaresTheRetainedLeavesTopicsMdGivesIt() throws {
        let documented = try Self.documented()
        let everyDevice = try #require(documented[""])
        let configuration = BridgeConfiguration(mqtt: .init(host: "test"), adapters: ["hci0"], gateway: "test")
        for type in FamilyRegistry.drivers {
            let driver = type.init(configuration: configuration)
            let family = driver.family.rawValue
            #expect(
                driver.retainedLeaves == everyDevice.union(documented[family] ?? []),
                "\(family): declared \(driver.retainedLeaves.sorted()), topics.md \(documented[family]?.sorted() ?? [])"
            )
        }
    }
}
