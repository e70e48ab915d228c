import Foundation
import TestSupport
import Testing

@testable import Bridge

/// topics.md's "Streams" paragraph names the topics `devices.streaming: off` keeps from the broker; the families
/// declare the same leaves (`FamilyDriver.streamLeaves`), which is what the gateway drops.
struct StreamLeavesDocumentTests {
    @Test func everyFamilyDeclaresTheStreamsTopicsMdNames() throws {
        let text = try String(contentsOfFile: ProjectPaths.root + "/topics.md", encoding: .utf8)
        let start = try #require(text.range(of: "**Streams.**"), "topics.md has its Streams paragraph")
        let paragraph = String(text[start.upperBound...]).components(separatedBy: "\n\n")[0]
        var documented: [String: Set<String>] = [:]
        for match in paragraph.matches(of: /`([a-z0-9]+)\/<id>\/([a-z_]+)`/) {
            documented[String(match.output.1), default: []].insert(String(match.output.2))
        }
        #expect(!documented.isEmpty)
        let configuration = BridgeConfiguration(mqtt: .init(host: "test"), adapters: ["hci0"], gateway: "test")
        for type in FamilyRegistry.drivers {
            let driver = type.init(configuration: configuration)
            let family = driver.family.rawValue
            #expect(
                driver.streamLeaves == documented[family] ?? [],
                "\(family): declared \(driver.streamLeaves.sorted()), topics.md \(documented[family]?.sorted() ?? [])")
        }
    }
}
