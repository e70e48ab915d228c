import Foundation
import TestSupport
import Testing

/// TOOLCHAINS is the one statement of the compiler that makes each architecture's release: swift.org's
/// toolchain for amd64 (`.swift-version`, which swiftly reads, names the same one for development) and
/// Debian's swiftlang for arm64 (cross-compiled). The container's package stages, Package.swift, the
/// README and the cross scripts are kept in agreement with it here.
struct ToolchainVersionTests {
    static func read(_ file: String) throws -> String {
        try String(contentsOfFile: ProjectPaths.root + "/" + file, encoding: .utf8)
    }

    /// TOOLCHAINS' line for an architecture: its source and version.
    static func stated(for arch: String) throws -> (source: String, version: String) {
        let lines = try read("TOOLCHAINS").split(separator: "\n").filter { !$0.hasPrefix("#") }
        let fields = try #require(
            lines.map { $0.split(separator: " ") }.first { $0.first == Substring(arch) },
            "TOOLCHAINS has a line for \(arch)")
        try #require(fields.count == 3, "TOOLCHAINS' \(arch) line is ARCH SOURCE VERSION")
        return (String(fields[1]), String(fields[2]))
    }

    static func numbers(_ version: String) throws -> [Int] {
        let parts = version.split(separator: ".").compactMap { Int($0) }
        try #require(parts.count >= 2 && parts.count == version.split(separator: ".").count, "a version: \(version)")
        return parts
    }

    @Test func everyPackagedArchitectureHasOneToolchain() throws {
        #expect(try Self.stated(for: "amd64").source == "swift.org")
        #expect(try Self.stated(for: "arm64").source == "debian-sid")
        _ = try Self.numbers(try Self.stated(for: "amd64").version)
        _ = try Self.numbers(try Self.stated(for: "arm64").version)
    }

    @Test func theDevelopmentToolchainIsTheAmd64One() throws {
        let development = try Self.read(".swift-version").trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(development == (try Self.stated(for: "amd64").version))
    }

    /// Each image's package stage runs on the build machine with its architecture's toolchain: swift.org's image for
    /// amd64, Debian sid (whose swiftlang scripts/cross/lib.sh checks against TOOLCHAINS) for arm64.
    @Test func theContainerBuildsWithTheStatedToolchains() throws {
        let version = try Self.stated(for: "amd64").version
        let toolchains = try Self.read("docker/Dockerfile").split(separator: "\n").filter {
            $0.hasPrefix("FROM ") && $0.contains(" AS toolchain-")
        }
        #expect(
            toolchains == [
                "FROM --platform=$BUILDPLATFORM swift:\(version)-bookworm AS toolchain-amd64",
                "FROM --platform=$BUILDPLATFORM debian:sid-slim AS toolchain-arm64",
            ])
    }

    /// Both compilers build the source, so Package.swift may ask for no newer tools than the older one.
    @Test func packageSwiftAsksForNoNewerToolsThanEitherCompiler() throws {
        let first = try #require(try Self.read("Package.swift").split(separator: "\n").first)
        let tools = try #require(first.split(separator: ":").last?.trimmingCharacters(in: .whitespaces))
        let asked = tools.split(separator: ".").compactMap { Int($0) }
        for arch in ["amd64", "arm64"] {
            let stated = try Self.numbers(try Self.stated(for: arch).version)
            #expect(
                !stated.lexicographicallyPrecedes(asked),
                "swift-tools-version \(tools) needs a toolchain no newer than \(arch)'s")
        }
    }

    @Test func theReadmeNamesBoth() throws {
        let readme = try Self.read("README.md")
        #expect(readme.contains("Swift \(try Self.stated(for: "amd64").version) toolchain"))
        #expect(readme.contains("swiftlang \(try Self.stated(for: "arm64").version)"))
    }

    /// The cross scripts take the arm64 version from TOOLCHAINS and check the compiler against it; a
    /// version written into them would be a second statement that could disagree.
    @Test func theCrossScriptsReadTheVersionFromToolchains() throws {
        let version = try Self.stated(for: "arm64").version
        for script in ["scripts/cross/lib.sh", "scripts/cross/arm64", "scripts/package", "debian/rules"] {
            #expect(!(try Self.read(script).contains(version)), "\(script) names \(version)")
        }
        #expect(try Self.read("scripts/cross/lib.sh").contains("stated_toolchain arm64"))
    }

    /// The Dockerfile's arm64 toolchain stage copies only what making the toolchain reads (so that other changes keep
    /// that stage): scripts/cross/toolchain, the library it sources and every file that sources in turn, TOOLCHAINS.
    @Test func theArm64ToolchainStageCopiesWhatItsScriptReads() throws {
        let lines = try Self.read("docker/Dockerfile").split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex { $0.hasSuffix(" AS toolchain-arm64") })
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("FROM ") } ?? lines.endIndex
        let copied = Set(
            lines[start..<end].filter { $0.hasPrefix("COPY ") }.flatMap { line -> [String] in
                let words = line.split(separator: " ").dropFirst().map(String.init)
                return words.dropLast().map { $0.hasSuffix("/") ? "" : $0 }.filter { !$0.isEmpty }
            })
        let sourced = try Self.read("scripts/cross/lib.sh").split(separator: "\n").compactMap { line -> String? in
            let prefix = ". \"$cross_repo/"
            guard line.hasPrefix(prefix), line.hasSuffix("\"") else { return nil }
            return String(line.dropFirst(prefix.count).dropLast())
        }
        #expect(!sourced.isEmpty, "scripts/cross/lib.sh sources the shared library")
        #expect(copied == Set(["TOOLCHAINS", "scripts/cross/lib.sh", "scripts/cross/toolchain"] + sourced))
        for script in sourced {
            #expect(!(try Self.read(script).contains("\n. ")), "\(script) sources nothing further")
        }
    }
}
