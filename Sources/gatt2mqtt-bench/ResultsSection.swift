import Foundation

/// BENCHMARKS.md is written by hand around one generated section, between two markers; a run replaces
/// what is between them (and appends the section if the markers are missing).
enum ResultsSection {
    static let begin = "<!-- results:begin (written by gatt2mqtt-bench) -->"
    static let end = "<!-- results:end -->"

    static func replace(in path: String, with results: String) throws {
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "# Benchmarks\n"
        let section = begin + "\n\n" + results + "\n" + end
        let updated: String
        if let start = existing.range(of: begin), let stop = existing.range(of: end, range: start.upperBound..<existing.endIndex) {
            updated = existing.replacingCharacters(in: start.lowerBound..<stop.upperBound, with: section)
        } else {
            updated = existing + "\n" + section + "\n"
        }
        try updated.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
