import Foundation
import TestSupport
import Testing

@testable import DaemonConfiguration

/// The example configuration and the one the package installs say a key's default in its comment (`default 20;`),
/// where a user reads it before changing the value. The declaration is the one source (what `--help` and
/// docs/settings.md show, `SettingsReference.defaultText`): every default a comment states is checked against it,
/// commented-out keys included, so a changed default cannot leave the files behind.
struct StatedDefaultsTests {
    /// A key line's dotted path and the default its comment states (`default X` at the comment's start or after a
    /// `;`, up to the next `;`), for every key line of `text`, a commented-out one (`#   name: x  # …`) included.
    static func statedDefaults(in text: String) -> [(path: String, stated: String)] {
        var sections: [(indent: Int, name: String)] = []
        var found: [(path: String, stated: String)] = []
        for raw in text.split(separator: "\n") {
            var line = Substring(raw)
            // `# gateway:` and `#   name: workshop   # …`: a key left out, shown as the user would write it.
            if line.hasPrefix("# "), line.dropFirst(2).first.map({ $0 == " " || $0.isLetter }) == true {
                line = line.dropFirst(2)
            }
            let indent = line.prefix { $0 == " " }.count
            let body = line.dropFirst(indent)
            guard let name = body.firstMatch(of: /^([a-z0-9_]+):(?: |$)/)?.output.1 else { continue }
            sections.removeAll { $0.indent >= indent }
            let path = (sections.map(\.name) + [String(name)]).joined(separator: ".")
            let comment = body.firstRange(of: " # ").map { body[$0.upperBound...] } ?? ""
            let value = body.dropFirst(name.count + 1).prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
            if value.isEmpty, comment.isEmpty || !comment.contains("default") {
                sections.append((indent, String(name)))
            }
            if let match = comment.firstMatch(of: /(?:^|; )default:? ([^;]*)/) {
                found.append((path, String(match.output.1)))
            }
        }
        return found
    }

    /// A default as either side writes it, for comparing: brackets, quotes and spaces gone, a words' note after
    /// ` (` or `: ` left out, a typographic minus made ASCII.
    static func normalized(_ text: String) -> String {
        let note = [" (", ": "].compactMap { text.range(of: $0)?.lowerBound }.min().map { String(text[..<$0]) } ?? text
        return String(note.replacingOccurrences(of: "−", with: "-").filter { !"[]\"' ".contains($0) })
    }

    @Test func theReaderFindsKeysTheirSectionsAndTheirStatedDefaults() {
        let text = """
            broker:
              url: mqtt://h:1   # mqtt://HOST[:PORT] (default port 1883); default mqtt://127.0.0.1:1883; flag --broker
            # gateway:
            #   name: workshop  # default: the host name
            cpr:
              distance:
                exponent: 2     # 1–10; default 2; flag --cpr-distance-exponent
            log_level: info     # no default said here
            """
        let found = Self.statedDefaults(in: text)
        #expect(found.map(\.path) == ["broker.url", "gateway.name", "cpr.distance.exponent"])
        #expect(found.map(\.stated) == ["mqtt://127.0.0.1:1883", "the host name", "2"])
        #expect(Self.normalized("[50, 60]") == "50,60")
        #expect(Self.normalized("−59") == "-59")
        #expect(Self.normalized("60 (Bus)") == "60")
        #expect(Self.normalized("false: disabled, sparing its recorder") == "false")
        #expect(Self.normalized("mqtt://127.0.0.1:1883") == "mqtt://127.0.0.1:1883")
    }

    @Test(arguments: ["examples/gatt2mqtt.yaml", "debian/gatt2mqtt.yaml"])
    func everyStatedDefaultIsTheDeclaredOne(file: String) throws {
        let text = try String(contentsOfFile: ProjectPaths.root + "/" + file, encoding: .utf8)
        let stated = Self.statedDefaults(in: text)
        var compared = 0
        for (path, words) in stated {
            let key = try #require(ConfigurationKey(rawValue: path), "\(file) states a default of \(path), no key")
            let declared = SettingsReference.defaultText(key)
            // A default that depends on the machine or on other keys is said in words, each file its own way.
            guard key.defaultNote == nil else { continue }
            #expect(
                Self.normalized(words) == Self.normalized(declared),
                "\(file): \(path) says its default is '\(words)', it is '\(declared)'")
            compared += 1
        }
        // The example states most keys' defaults; the installed file, which shows few keys, at least auto_connect's.
        #expect(compared >= (file.hasPrefix("examples/") ? 30 : 1), "\(compared) stated defaults compared")
    }
}
