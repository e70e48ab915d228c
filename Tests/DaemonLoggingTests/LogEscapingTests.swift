import DaemonLogging
import Locks
import Logging
import Testing

/// Text from the radio or the broker reaches the log escaped: no entry splits in two, no control sequence
/// reaches a terminal, and no text can pass for an escape.
@Suite struct LogEscapingTests {
    /// Every control character, one by one, with the escape it becomes.
    static let controls: [(Unicode.Scalar, String)] = {
        var table: [(Unicode.Scalar, String)] = [("\n", #"\n"#), ("\r", #"\r"#), ("\t", #"\t"#)]
        let others =
            Array(0x00...0x1F).filter { ![0x09, 0x0A, 0x0D].contains($0) } + Array(0x7F...0x9F) + [0x2028, 0x2029]
        for value in others {
            table.append((Unicode.Scalar(UInt32(value))!, #"\u{"# + String(value, radix: 16, uppercase: true) + "}"))
        }
        return table
    }()

    @Test func everyControlCharacterIsEscaped() {
        #expect(Self.controls.count == 32 + 1 + 32 + 2)
        for (scalar, escape) in Self.controls {
            let text = "a" + String(Character(scalar)) + "b"
            #expect(LogEscaping.escaped(text) == "a" + escape + "b", "U+\(String(scalar.value, radix: 16))")
        }
    }

    @Test func escEndsUpReadable() {
        #expect(LogEscaping.escaped("\u{1B}[2Jcleared") == #"\u{1B}[2Jcleared"#)
        #expect(LogEscaping.escaped("\u{0}") == #"\u{0}"#)
    }

    /// A backslash is escaped too, so the text `\n` cannot pass for an escaped newline.
    @Test func aBackslashCannotForgeAnEscape() {
        #expect(LogEscaping.escaped(#"x\ny"#) == #"x\\ny"#)
        #expect(LogEscaping.escaped("x\ny") == #"x\ny"#)
        #expect(LogEscaping.escaped(#"x\ny"#) != LogEscaping.escaped("x\ny"))
    }

    @Test func everythingElseIsLeftAsItIs() {
        for text in ["", "naviGuertel-SIM", "Gürtel 北 🧭", "{\"a\":1}", "\u{A0}\u{2027}\u{202A}", "e\u{301}"] {
            #expect(LogEscaping.escaped(text) == text)
        }
    }

    @Test func metadataKeysAndValuesAreEscaped() {
        let escaped = LogEscaping.escaped(["key\n": "value\u{1B}", "list": .array(["a\nb"]), "plain": "x"])
        #expect(escaped["key\\n"] == .string(#"value\u{1B}"#))
        #expect(
            escaped["list"] == .string(#"["a\\nb"]"#),
            "a list prints its strings escaped, and the backslash is escaped again")
        #expect(escaped["plain"] == "x")
        #expect(escaped.count == 3)
    }

    /// What the stream handler wrote, as one text.
    final class Written: TextOutputStream, Sendable {
        let text = Mutex("")
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    /// The handler used off the journal escapes the message and every key and value, whether set on the logger,
    /// given with the message or provided.
    @Test func theStreamHandlerWritesOneLinePerEntry() {
        let written = Written()
        var logger = Logger(label: "gatt2mqtt") {
            ThresholdStreamLogHandler(label: $0, threshold: LogThreshold(.info), stream: written)
        }
        logger[metadataKey: "device\n"] = "x\u{85}y"
        logger.info(
            "name x\n2026-01-01T00:00:00+0000 critical gatt2mqtt: fake", metadata: ["reason": "a\u{1B}[2J\u{2028}"])
        let text = written.text.withLock { $0 }
        #expect(text.hasSuffix(#"name x\n2026-01-01T00:00:00+0000 critical gatt2mqtt: fake"# + "\n"), "\(text)")
        #expect(text.contains(#"device\n=x\u{85}y reason=a\u{1B}[2J\u{2028}"#), "\(text)")
        #expect(text.filter { $0 == "\n" }.count == 1)
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x85 || $0.value == 0x2028 })
    }
}
