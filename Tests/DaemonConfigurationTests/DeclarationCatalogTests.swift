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
        #expect(
            catalog.declarations.map(\.family) == [
                "cycling_power", "csc", "environment", "fitness_machine", "rsc", "scale",
            ])
    }

    @Test func aFolderAddsItsFilesAndLeavesOutABadOneWithItsLine() throws {
        let folder = try TemporaryFolder()
        try folder.write("lab.yaml", Self.custom("lab"))
        try folder.write("broken.yaml", Self.custom("broken").replacingOccurrences(of: "type: u16", with: "type: u12"))
        try folder.write("twin.yaml", Self.custom("lab", prefix: "TWIN-"))
        try folder.write("notes.txt", "not a declaration")
        let catalog = DeclarationCatalog.load(folder: folder.path)
        #expect(
            catalog.declarations.map(\.family) == [
                "cycling_power", "csc", "environment", "fitness_machine", "rsc", "scale", "lab",
            ])
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
        #expect(catalog.declarations.count == ShippedDeclarations.files.count + DeclarationCatalog.fileLimit)
        #expect(catalog.refused.map(\.message) == ["66 declarations; the first 64 by name are read, the rest left out"])
    }

    /// docs/devices.md's worked example: its declaration reads, decodes and encodes as the page says.
    @Test func theWorkedExampleInTheDocsIsTrue() throws {
        let docs = try String(
            contentsOf: StandardDeclarationsTests.folder.deletingLastPathComponent().appendingPathComponent(
                "docs/devices.md"), encoding: .utf8)
        let section = try #require(docs.components(separatedBy: "## A device of your own").dropFirst().first)
        let yaml = try #require(
            section.components(separatedBy: "```yaml\n").dropFirst().first?
                .components(separatedBy: "```").first)
        let thermometer = try DeclarationReader.read(yaml, file: "thermometer.yaml", takenFamilies: [])
        #expect(thermometer.family == "thermo" && thermometer.label == "Lab thermometer")
        #expect(thermometer.characteristics.count == 3 && thermometer.characteristics.flatMap(\.fields).count == 5)
        let reading = try #require(thermometer.characteristics.first)
        let decoded = try DeclaredDecoder.decode(
            [0x01, 0x6A, 0x08, 0x39, 0x12], fields: reading.fields, characteristic: reading.uuid)
        #expect(decoded.map(\.value) == [.number(21.54), .number(46.65)])
        let calibrate = try #require(thermometer.commands.first)
        #expect(try calibrate.encode(["offset": -1.5]) == [0x01, 0x6A, 0xFF])
        #expect(throws: DeclaredCommandError(field: "offset", reason: .outOfRange(-10...10))) {
            try calibrate.encode(["offset": 11])
        }
        #expect(calibrate.answer?.answers([0x80, 0x01, 0x01], on: calibrate.characteristic) == true)
        #expect(section.contains("3 characteristics, 5 fields, 1 command"))
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
