import Foundation

/// A state directory of a test's own, removed when the test lets go of it: the files the gateway keeps, as a test
/// writes them beforehand and reads them afterwards.
final class StateFolder: Sendable {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
        "g2m-state-\(UUID().uuidString.prefix(8))"
    ).path

    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path + "/" + name))
    }

    func read(_ name: String) throws -> String { try String(contentsOfFile: path + "/" + name, encoding: .utf8) }

    func type(_ name: String) throws -> FileAttributeType? {
        try FileManager.default.attributesOfItem(atPath: path + "/" + name)[.type] as? FileAttributeType
    }

    func mode(_ name: String) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: path + "/" + name)[.posixPermissions] as? Int
    }

    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted() }

    /// What the gateway set aside of `name` (`<name>.damaged-<time>`), oldest first, by contents; one that is no
    /// regular file is not opened (a FIFO would wait for a writer) but named so.
    func setAside(_ name: String) -> [String] {
        names.filter { $0.hasPrefix(name + ".damaged-") }.map {
            (try? type($0)) == .typeRegular ? (try? read($0)) ?? "" : "(no regular file)"
        }
    }
}
