import Foundation

/// BENCHMARKS.md is written by hand around generated sections, each between two markers named after it
/// (`results` for the BlueZoo world, `results-real` for the real bluetoothd); a run replaces what is
/// between its markers (and appends the section if they are missing).
struct ResultsSection {
    var name: String
    var begin: String { "<!-- \(name):begin (written by gatt2mqtt-bench) -->" }
    var end: String { "<!-- \(name):end -->" }

    func replace(in path: String, with results: String) throws {
        let existing = (try? String(contentsOfFile: path, encoding: .utf8)) ?? "# Benchmarks\n"
        let section = begin + "\n\n" + results + "\n" + end
        let updated: String
        if let start = existing.range(of: begin),
            let stop = existing.range(of: end, range: start.upperBound..<existing.endIndex)
        {
            updated = existing.replacingCharacters(in: start.lowerBound..<stop.upperBound, with: section)
        } else {
            updated = existing + "\n" + section + "\n"
        }
        try updated.write(toFile: path, atomically: true, encoding: .utf8)
    }
}
