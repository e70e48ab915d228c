import Foundation

/// A configuration file for one test's bridge (`--config <path>`), removed when it is no longer used: the bridge
/// reads it at its start.
final class TemporaryConfiguration {
    let path: String

    init(_ yaml: String) throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent("g2m-\(UUID().uuidString.prefix(8)).yaml")
            .path
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
