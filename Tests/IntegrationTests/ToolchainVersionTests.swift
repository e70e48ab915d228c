import Foundation
import Testing
import TestSupport

/// `.swift-version` is the one statement of the Swift toolchain gatt2mqtt needs: the container's builder
/// stage uses it, Package.swift asks for no newer tools, and the README names it.
struct ToolchainVersionTests {
    static func read(_ file: String) throws -> String { try String(contentsOfFile: ProjectPaths.root + "/" + file, encoding: .utf8) }

    static func stated() throws -> [Int] {
        let text = try read(".swift-version").trimmingCharacters(in: .whitespacesAndNewlines)
        let parts = text.split(separator: ".").compactMap { Int($0) }
        try #require(parts.count >= 2 && parts.count == text.split(separator: ".").count, ".swift-version is a version: \(text)")
        return parts
    }

    @Test func theContainerBuildsWithTheStatedToolchain() throws {
        let version = try Self.stated().map(String.init).joined(separator: ".")
        let builders = try Self.read("docker/Dockerfile").split(separator: "\n").filter { $0.hasPrefix("FROM swift:") }
        #expect(builders == ["FROM swift:\(version)-bookworm AS package"])
    }

    @Test func packageSwiftAsksForNoNewerTools() throws {
        let first = try #require(try Self.read("Package.swift").split(separator: "\n").first)
        let tools = try #require(first.split(separator: ":").last?.trimmingCharacters(in: .whitespaces))
        let asked = tools.split(separator: ".").compactMap { Int($0) }
        let stated = try Self.stated()
        #expect(!stated.lexicographicallyPrecedes(asked), "swift-tools-version \(tools) needs a toolchain no newer than .swift-version")
    }

    @Test func theReadmeNamesIt() throws {
        let version = try Self.stated().map(String.init).joined(separator: ".")
        #expect(try Self.read("README.md").contains("Swift \(version) toolchain"))
    }
}
