/// The "Fleet at scale" part of docs/fleet-benchmark.md, between two markers: `--fleet-scale` replaces only what
/// lies between them (or appends it, the first time), and `--fleet`, which writes the rest of the file anew,
/// carries it over, so that each bench leaves the other's tables alone.
enum ScaleSection {
    static let begin = "<!-- fleet-scale: written by gatt2mqtt-bench --fleet-scale -->"
    static let end = "<!-- fleet-scale: end -->"

    /// The marked block of `document`, markers included; nil when it has none.
    static func block(of document: String) -> String? {
        guard let start = document.range(of: begin),
            let stop = document.range(of: end, range: start.upperBound..<document.endIndex)
        else { return nil }
        return String(document[start.lowerBound..<stop.upperBound])
    }

    /// `document` with its marked block replaced by `section` (marked anew), or with it appended after a blank line.
    static func replacing(in document: String, with section: String) -> String {
        let block = "\(begin)\n\(section)\n\(end)"
        guard let old = self.block(of: document), let range = document.range(of: old) else {
            let trimmed = document.hasSuffix("\n") ? String(document.dropLast()) : document
            return trimmed.isEmpty ? block + "\n" : trimmed + "\n\n" + block + "\n"
        }
        return document.replacingCharacters(in: range, with: block)
    }
}
