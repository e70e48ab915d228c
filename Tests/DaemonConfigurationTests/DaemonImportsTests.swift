import Foundation
import Testing

/// The daemon links FoundationEssentials, never the whole of Foundation: a plain `import Foundation` in any of its
/// modules pulls in ICU's data and grew the static binary from 28 MB to 74 MB once (a declaration loader's), which
/// only the container image's size check noticed, an hour into the suite. Where a file needs Foundation's types it
/// imports FoundationEssentials, with Foundation only in the `#else` of `canImport(FoundationEssentials)`.
struct DaemonImportsTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources")
    /// The modules the daemon (`gatt2mqtt`) is made of.
    static let daemonModules = [
        "BlueZ", "Bridge", "DBus", "DaemonConfiguration", "DaemonLogging", "Fleet", "Locks", "MQTT", "Peripherals",
        "WakePipe", "WebUI", "gatt2mqtt",
    ]

    @Test func noModuleOfTheDaemonImportsTheWholeOfFoundation() throws {
        var offenders: [String] = []
        for module in Self.daemonModules {
            let folder = Self.sources.appendingPathComponent(module)
            let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                // At the start of a line: not indented in an #if's #else.
                if text.split(separator: "\n").contains(where: { $0 == "import Foundation" }) {
                    offenders.append("\(module)/\(file)")
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
        #expect(files(in: "Bridge") > 100, "the sources were found")
    }

    private func files(in module: String) -> Int {
        (FileManager.default.enumerator(atPath: Self.sources.appendingPathComponent(module).path)?.allObjects ?? [])
            .count
    }
}
