import Foundation
import TestSupport
import Testing

/// VERSION is the one place of the version; the docs name files made from it (`gatt2mqtt_<version>_amd64.deb`),
/// and a newcomer copies those commands. Every package file name the docs give carries VERSION's version, so a
/// release that forgets the docs fails here instead of in a user's shell.
struct DocumentedVersionTests {
    /// The versions in `gatt2mqtt_<version>_<arch>.deb` names in `text`.
    static func packageVersions(in text: String) -> [String] {
        let pattern = /gatt2mqtt_([0-9][0-9A-Za-z.~+]*)_(amd64|arm64)\.deb/
        return text.matches(of: pattern).map { String($0.output.1) }
    }

    @Test func theExtractorFindsEachPackageName() {
        let text = "apt install ./gatt2mqtt_1.2.3_amd64.deb; → .build/package/arm64/gatt2mqtt_1.2.4~rc1_arm64.deb"
        #expect(Self.packageVersions(in: text) == ["1.2.3", "1.2.4~rc1"])
        #expect(Self.packageVersions(in: "gatt2mqtt_<version>_amd64.deb").isEmpty)
    }

    /// Every Markdown file of the project's own (the README, docs/, docker/, debian/): none names a package
    /// of another version than VERSION's.
    @Test func everyPackageNameCarriesTheVersion() throws {
        let root = ProjectPaths.root
        var files = ["README.md"]
        for folder in ["docs", "docker", "debian"] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/" + folder)) ?? []
            files += names.filter { $0.hasSuffix(".md") }.map { folder + "/" + $0 }
        }
        let version = try ProjectPaths.version()
        var named = 0
        for file in files {
            let versions = Self.packageVersions(in: try String(contentsOfFile: root + "/" + file, encoding: .utf8))
            named += versions.count
            let stale = versions.filter { $0 != version }
            #expect(stale.isEmpty, "\(file) names packages of \(stale), VERSION is \(version)")
        }
        #expect(named >= 2, "the README names the packages it tells users to install")
    }

    @Test func theReadmeNamesBothPackages() throws {
        let text = try String(contentsOfFile: ProjectPaths.root + "/README.md", encoding: .utf8)
        let version = try ProjectPaths.version()
        #expect(text.contains("gatt2mqtt_\(version)_amd64.deb"))
        #expect(text.contains("gatt2mqtt_\(version)_arm64.deb"))
    }
}
