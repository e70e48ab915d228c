import Foundation

/// The README's indented code blocks, for the tests that run what it tells a user to type, word for word.
public enum ReadmeBlocks {
    public struct Missing: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// The first indented block under `## title` whose first line begins with `start`, each line without its four
    /// spaces of indentation. A block goes on over empty lines and ends at the first line that is neither indented nor
    /// empty; the empty lines at its end are not part of it.
    public static func block(under title: String, startingWith start: String = "") throws -> [String] {
        let readme = try String(contentsOfFile: ProjectPaths.root + "/README.md", encoding: .utf8)
        guard let section = readme.components(separatedBy: "\n## \(title)\n").dropFirst().first else {
            throw Missing(description: "README.md has no section '## \(title)'")
        }
        let lines = section.components(separatedBy: "\n").prefix { !$0.hasPrefix("## ") }
        guard let first = lines.firstIndex(where: { $0.hasPrefix("    " + start) }) else {
            throw Missing(description: "README.md's '## \(title)' has no indented block beginning '\(start)'")
        }
        var block = lines[first...].prefix { $0.hasPrefix("    ") || $0.isEmpty }.map { String($0.dropFirst(4)) }
        while block.last?.isEmpty == true { block.removeLast() }
        return block
    }
}
