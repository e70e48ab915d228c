import Foundation
import Peripherals
import Testing

@testable import DaemonConfiguration

/// The declared families a gateway serves: the shipped ones compiled in, and a folder's (`devices.declarations`).
struct DeclarationCatalogTests {
    /// A small custom device with its own UUIDs, named `family`.
    static func custom(_ family: String, prefix: String = "LAB-") -> String {
        """
        family: \(family)
        label: Lab sensor
        match:
          name_prefixes: ["\(prefix)"]
        characteristics:
          - uuid: 0000bb01-1234-5678-9abc-def012345678
            service: 0000bb00-1234-5678-9abc-def012345678
            access: notify
            fields:
              - {name: level, type: u16}
        """
    }

    @Test func theShippedDeclarationsAreTheRepositorysFilesCompiledIn() throws {
        let folder = StandardDeclarationsTests.folder.path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }
        #expect(ShippedDeclarations.files.map(\.name) == names.sorted())
        for file in ShippedDeclarations.files {
            #expect(
                file.text == (try String(contentsOfFile: folder + "/" + file.name, encoding: .utf8)), "\(file.name)")
        }
        let catalog = DeclarationCatalog.load(folder: nil)
        #expect(catalog.refused == [] && catalog.replaced == [])
        #expect(catalog.declarations.map(\.family) == ["cycling_power", "csc", "environment", "rsc", "scale"])
    }

    @Test func aFolderAddsItsFilesAndLeavesOutABadOneWithItsLine() throws {
        let folder = try TemporaryFolder()
        try folder.write("lab.yaml", Self.custom("lab"))
        try folder.write("broken.yaml", Self.custom("broken").replacingOccurrences(of: "type: u16", with: "type: u12"))
        try folder.write("twin.yaml", Self.custom("lab", prefix: "TWIN-"))
        try folder.write("notes.txt", "not a declaration")
        let catalog = DeclarationCatalog.load(folder: folder.path)
        #expect(catalog.declarations.map(\.family) == ["cycling_power", "csc", "environment", "rsc", "scale", "lab"])
        #expect(catalog.refused.map(\.file) == [folder.path + "/broken.yaml", folder.path + "/twin.yaml"])
        #expect(catalog.refused.first?.line == 10, "the field's line: \(catalog.refused)")
        #expect(catalog.refused.last?.message == "family 'lab' is declared in lab.yaml too")
    }

    @Test func aUsersFileOfAShippedFamilyReplacesIt() throws {
        let folder = try TemporaryFolder()
        try folder.write("my-csc.yaml", Self.custom("csc", prefix: "MYCSC"))
        let catalog = DeclarationCatalog.load(folder: folder.path)
        #expect(catalog.replaced == ["csc"])
        #expect(catalog.declarations.filter { $0.family == "csc" }.map(\.match.namePrefixes) == [["MYCSC"]])
    }

    @Test func aFolderThatIsNotThereHoldsNoneAndAFileInItsPlaceIsSaid() throws {
        #expect(DeclarationCatalog.load(folder: "/nonexistent/devices.d").refused == [])
        let folder = try TemporaryFolder()
        let file = try folder.write("devices.d", "a file")
        #expect(DeclarationCatalog.load(folder: file).refused.map(\.message) == ["not a folder that can be read"])
    }

    @Test func atMostSixtyFourFilesAreRead() throws {
        let folder = try TemporaryFolder()
        for index in 0..<(DeclarationCatalog.fileLimit + 2) {
            try folder.write(String(format: "d%03d.yaml", index), Self.custom(String(format: "d%03d", index)))
        }
        let catalog = DeclarationCatalog.load(folder: folder.path)
        #expect(catalog.declarations.count == 5 + DeclarationCatalog.fileLimit)
        #expect(catalog.refused.map(\.message) == ["66 declarations; the first 64 by name are read, the rest left out"])
    }

    /// The loader reads no declaration: the daemon does, once, at its start (`loadDeclarations`).
    @Test func loadingAConfigurationReadsNoDeclaration() throws {
        let folder = try TemporaryFolder()
        try folder.write("lab.yaml", Self.custom("lab"))
        var loaded = try load("devices:\n  declarations: \(folder.path)\n")
        #expect(loaded.declarationsFolder == folder.path && loaded.bridge.declarations.isEmpty)
        loaded.loadDeclarations()
        #expect(loaded.bridge.declarations.map(\.family).last == "lab")
        #expect(try load("").declarationsFolder == "/etc/gatt2mqtt/devices.d")
    }
}
