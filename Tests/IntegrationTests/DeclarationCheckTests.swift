import Foundation
import TestSupport
import Testing

/// `gatt2mqtt --check-declaration FILE` (issue #59), as a user runs it on a declaration: every shipped one is
/// accepted and said in one line; a wrong one is refused with its file, line and reason, and exit status 1.
@Suite struct DeclarationCheckTests {
    private func check(_ file: String) async throws -> (ProcessExit, [String]) {
        let process = try ManagedProcess.launch(
            ProjectPaths.binary("gatt2mqtt"), arguments: ["--check-declaration", file])
        let exit = try await process.waitForExit(timeout: .seconds(30))
        return (exit, process.lines.map(\.text))
    }

    @Test func everyShippedDeclarationPasses() async throws {
        let folder = ProjectPaths.root + "/declarations"
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".yaml") }
            .sorted()
        #expect(!names.isEmpty)
        for name in names {
            let (exit, lines) = try await check(folder + "/" + name)
            #expect(exit == .exited(0), "\(name): \(lines)")
            #expect(lines.contains { $0.hasPrefix("\(folder)/\(name): family ") && $0.contains(" characteristic") })
        }
    }

    @Test func aWrongDeclarationIsRefusedWithItsLine() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "declaration-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try """
        family: meter
        label: Meter
        match: {services: ["181A"]}
        characteristics:
          - {uuid: 2A6E, service: 181A, access: notify, fields: [{name: temperature, type: s17}]}
        """.write(to: file, atomically: true, encoding: .utf8)
        let (exit, lines) = try await check(file.path)
        #expect(exit == .exited(1))
        #expect(
            lines.contains { $0.contains("\(file.path):5: type 's17' is none of ") }, "\(lines)")
        let (missing, said) = try await check(file.path + ".absent")
        #expect(missing == .exited(1) && said.contains { $0.contains("no such file") }, "\(said)")
    }
}
