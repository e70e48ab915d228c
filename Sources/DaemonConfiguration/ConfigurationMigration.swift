/// The configuration file's format version (`version: 1`) and how a file of an earlier version is read: a key that
/// was renamed since is read under its new name, and the start says so (`LoadedConfiguration.notices`), so a file
/// keeps working across an upgrade and its administrator learns what to change. A file without `version` is of
/// version 1: every file written before the key existed is.
struct ConfigurationMigration: Sendable {
    /// The version this gatt2mqtt writes (`--print-config`) and reads without renaming.
    let current: Int
    /// For each version, the keys renamed on the way to the next one: old key path → new key path.
    let renames: [Int: [String: String]]

    /// The file format of this release: version 1, nothing renamed yet.
    static let fileFormat = ConfigurationMigration(current: 1, renames: [:])

    /// The key path `path` of a file of `version` has now, and, when renamed, the notice that says so.
    func migrated(_ path: String, from version: Int) -> (path: String, notice: String?) {
        var now = path
        for step in version..<current {
            if let renamed = renames[step]?[now] { now = renamed }
        }
        guard now != path else { return (path, nil) }
        return (now, "\(path) is called \(now) since version \(current) of the configuration file: rename it there")
    }
}
