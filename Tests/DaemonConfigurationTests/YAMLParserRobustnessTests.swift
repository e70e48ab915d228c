import TestSupport
import Testing

@testable import DaemonConfiguration

/// Whatever a configuration file holds, the parser answers with a tree or a syntax error naming a line
/// of the text: never a crash, a hang or a line that is not there.
struct YAMLParserRobustnessTests {
    /// Texts made of YAML's punctuation, indentation and line breaks, from a fixed seed so that a
    /// failure repeats.
    @Test func randomTextsGiveATreeOrAnErrorOnOneOfTheirLines() {
        var generator = SplitMix64(seed: 0x6761_7474_326d_7174)
        let pieces = [
            "a", "key", ":", ": ", "- ", "-", "[", "]", "{", "}", ",", " ", "  ", "\n", "\n  ", "\n    ", "#", "'",
            "\"", "\\",
            "~", "&x", "*x", "!t", "|", ">", "? ", "---", "...", "\t", "\r\n", "é", "10:20", "\\u00e9", "null",
        ]
        var parsed = 0
        var rejected = 0
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 1...24, using: &generator)).map { _ in
                pieces.randomElement(using: &generator)!
            }.joined()
            let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
            do {
                _ = try YAMLParser.parse(text)
                parsed += 1
            } catch {
                rejected += 1
                #expect(
                    (1...max(lines, 1)).contains(error.line),
                    "line \(error.line) of \(lines) for \(text.debugDescription)")
                #expect(!error.message.isEmpty)
            }
        }
        // Both paths ran: the generator is no use if it only ever makes one kind of text.
        #expect(parsed > 100)
        #expect(rejected > 100)
    }
}
