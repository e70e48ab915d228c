import Foundation
import TestSupport
import Testing

@testable import DaemonConfiguration

/// The configuration file's YAML subset: exact node trees for what is read, and the line of the error
/// for everything else.
struct YAMLParserTests {
    static let everyday = """
        broker:
          url: mqtts://[::1]:8884
          protocol: 3.1.1
          tls:
            ca_file: ca.pem
        gateway: {name: lab-2}
        devices:
          allow: [11:22:33:44:55:66, aa:bb:cc:dd:ee:ff]
          aliases: {11:22:33:44:55:66: desk, "aa:bb:cc:dd:ee:ff": door_2}
          more:
            - "AA:BB:CC:DD:EE:01"
            - 'it''s'
        a5: {squeeze_newtons: 30.5, release_newtons: 7}
        cpr:
          range_mm: [40, 65]
        belt: {}
        base_topic: ""

        """

    // MARK: Everyday files

    @Test func theEverydayConfigurationParsesIntoTheExactTree() throws {
        let root = try parse(Self.everyday)
        let expected = mapping(
            1,
            (
                plain("broker", 1),
                mapping(
                    2,
                    (plain("url", 2), plain("mqtts://[::1]:8884", 2)),
                    (plain("protocol", 3), plain("3.1.1", 3)),
                    (plain("tls", 4), mapping(5, (plain("ca_file", 5), plain("ca.pem", 5)))))
            ),
            (plain("gateway", 6), mapping(6, (plain("name", 6), plain("lab-2", 6)))),
            (
                plain("devices", 7),
                mapping(
                    8,
                    (plain("allow", 8), sequence(8, plain("11:22:33:44:55:66", 8), plain("aa:bb:cc:dd:ee:ff", 8))),
                    (
                        plain("aliases", 9),
                        mapping(
                            9,
                            (plain("11:22:33:44:55:66", 9), plain("desk", 9)),
                            (doubleQuoted("aa:bb:cc:dd:ee:ff", 9), plain("door_2", 9)))
                    ),
                    (plain("more", 10), sequence(11, doubleQuoted("AA:BB:CC:DD:EE:01", 11), singleQuoted("it's", 12))))
            ),
            (
                plain("a5", 13),
                mapping(
                    13,
                    (plain("squeeze_newtons", 13), plain("30.5", 13)),
                    (plain("release_newtons", 13), plain("7", 13)))
            ),
            (plain("cpr", 14), mapping(15, (plain("range_mm", 15), sequence(15, plain("40", 15), plain("65", 15))))),
            (plain("belt", 16), mapping(16)),
            (plain("base_topic", 17), doubleQuoted("", 17)))
        #expect(root == expected)
        #expect(root["broker"]?["tls"]?["ca_file"] == plain("ca.pem", 5))
        #expect(
            root["devices"]?["more"]?.content
                == .sequence([
                    doubleQuoted("AA:BB:CC:DD:EE:01", 11), singleQuoted("it's", 12),
                ]))
        #expect(root["base_topic"]?.content == .scalar("", .doubleQuoted))
    }

    @Test func theExampleFileOnDiskParses() throws {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(
            contentsOf: packageRoot.appendingPathComponent("examples/gatt2mqtt.yaml"), encoding: .utf8)
        let document = try parse(text)
        #expect(document.line == 14)
        #expect(
            document.keys == [
                "version", "broker", "gateway", "base_topic", "adapters", "adapter_slots", "bluez", "devices", "belt",
                "a5", "cpr",
                "grip", "log_level", "log_level_mqtt", "payload_size_limit", "health_s", "health_file",
                "state_directory", "limits", "requests",
                "homeassistant", "fleet", "http",
            ])
        #expect(document["broker"]?["url"] == plain("mqtts://broker.example.net:8883", 16))
        #expect(document["base_topic"] == doubleQuoted("", 32))
        #expect(document["adapters"] == sequence(34, plain("hci0", 34)))
        #expect(
            document["devices"]?["allow"]
                == sequence(
                    44, doubleQuoted("AA:BB:CC:DD:EE:01", 44), doubleQuoted("aa:bb:cc:dd:ee:02", 45)))
        #expect(document["devices"]?["aliases"]?.keys == ["AA:BB:CC:DD:EE:01", "AA:BB:CC:DD:EE:02"])
        #expect(document["devices"]?["aliases"]?["AA:BB:CC:DD:EE:02"] == plain("trainer_a5", 48))
        #expect(document["belt"] == mapping(59))
        #expect(document["cpr"]?["range_mm"] == sequence(71, plain("50", 71), plain("60", 71)))
        #expect(document["cpr"]?["distance"]?["reference_dbm"] == plain("-59", 76))
        #expect(document["fleet"]?["incarnation_file"] == plain("/var/lib/gatt2mqtt/fleet-incarnation", 103))
        #expect(document["http"]?["listen"] == plain("127.0.0.1:8080", 106))
    }

    // MARK: Block collections

    @Test func nestedMappingsFollowTheirIndentation() throws {
        let text = "a:\n    b:\n      c: 1\n    d: 2\ne: 3\n"
        #expect(
            try parse(text)
                == mapping(
                    1,
                    (
                        plain("a", 1),
                        mapping(
                            2,
                            (plain("b", 2), mapping(3, (plain("c", 3), plain("1", 3)))),
                            (plain("d", 4), plain("2", 4)))
                    ),
                    (plain("e", 5), plain("3", 5))))
    }

    @Test func blockSequencesMayBeIndentedOrAtTheirKeysIndentation() throws {
        let text = "indented:\n  - a\n  - b\nflush:\n- c\n- d\nnext: 1\n"
        #expect(
            try parse(text)
                == mapping(
                    1,
                    (plain("indented", 1), sequence(2, plain("a", 2), plain("b", 3))),
                    (plain("flush", 4), sequence(5, plain("c", 5), plain("d", 6))),
                    (plain("next", 7), plain("1", 7))))
    }

    @Test func sequenceItemsMayBeScalarsFlowsMappingsOrSequences() throws {
        let text = "- plain\n- [a, b]\n- name: x\n  id: 2\n- - inner\n  - second\n-\n- \"q\"\n"
        #expect(
            try parse(text)
                == sequence(
                    1,
                    plain("plain", 1),
                    sequence(2, plain("a", 2), plain("b", 2)),
                    mapping(3, (plain("name", 3), plain("x", 3)), (plain("id", 4), plain("2", 4))),
                    sequence(5, plain("inner", 5), plain("second", 6)),
                    plain("", 7),
                    doubleQuoted("q", 8)))
    }

    @Test func aSequenceItemsMappingMayHoldBlocks() throws {
        let text = "- name:\n    first: x\n  tags:\n  - t\n- id: 3\n"
        #expect(
            try parse(text)
                == sequence(
                    1,
                    mapping(
                        1,
                        (plain("name", 1), mapping(2, (plain("first", 2), plain("x", 2)))),
                        (plain("tags", 3), sequence(4, plain("t", 4)))),
                    mapping(5, (plain("id", 5), plain("3", 5)))))
    }

    @Test func aValueMayStartOnTheLineBelowItsKey() throws {
        #expect(
            try parse("a:\n  value\nb:\n  [1]\n")
                == mapping(
                    1, (plain("a", 1), plain("value", 2)), (plain("b", 3), sequence(4, plain("1", 4)))))
    }

    @Test func theRootMayBeAScalarOrAFlowCollection() throws {
        #expect(try parse("hello world") == plain("hello world", 1))
        #expect(try parse("\n'quoted'\n") == singleQuoted("quoted", 2))
        #expect(try parse("[1, 2]") == sequence(1, plain("1", 1), plain("2", 1)))
    }

    // MARK: Scalars

    @Test func colonsWithoutASpaceStayInsideScalars() throws {
        let text = "AA:BB:CC:DD:EE:FF: a\nurl: mqtts://[::1]:8884\ntime: 12:30\npath: /a:b/c\n"
        #expect(
            try parse(text)
                == mapping(
                    1,
                    (plain("AA:BB:CC:DD:EE:FF", 1), plain("a", 1)),
                    (plain("url", 2), plain("mqtts://[::1]:8884", 2)),
                    (plain("time", 3), plain("12:30", 3)),
                    (plain("path", 4), plain("/a:b/c", 4))))
    }

    @Test func macAddressesInFlowCollectionsStayWhole() throws {
        #expect(try parse("[10:20:30:40:50:59]") == sequence(1, plain("10:20:30:40:50:59", 1)))
        #expect(
            try parse("{11:22:33:44:55:66: desk}") == mapping(1, (plain("11:22:33:44:55:66", 1), plain("desk", 1))))
        #expect(try parse("[::1, a:b]") == sequence(1, plain("::1", 1), plain("a:b", 1)))
    }

    @Test func nullLikeValuesStayAsWritten() throws {
        #expect(
            try parse("a: ~\nb: null\nc:\nd: Null\ne:")
                == mapping(
                    1,
                    (plain("a", 1), plain("~", 1)),
                    (plain("b", 2), plain("null", 2)),
                    (plain("c", 3), plain("", 3)),
                    (plain("d", 4), plain("Null", 4)),
                    (plain("e", 5), plain("", 5))))
    }

    @Test func quotedNumbersKeepTheirStyle() throws {
        #expect(
            try parse("a: \"30\"\nb: '30'\nc: 30\nd: 0x1F\n")
                == mapping(
                    1,
                    (plain("a", 1), doubleQuoted("30", 1)),
                    (plain("b", 2), singleQuoted("30", 2)),
                    (plain("c", 3), plain("30", 3)),
                    (plain("d", 4), plain("0x1F", 4))))
    }

    @Test func plainScalarsKeepInnerSpacesAndLoseTrailingOnes() throws {
        let text = "words: two words   \nhash: a#b\ncomment: a # b\ntab: a\tb\t\nurl: http://x/#top\nnegative: -5\n"
        #expect(
            try parse(text)
                == mapping(
                    1,
                    (plain("words", 1), plain("two words", 1)),
                    (plain("hash", 2), plain("a#b", 2)),
                    (plain("comment", 3), plain("a", 3)),
                    (plain("tab", 4), plain("a\tb", 4)),
                    (plain("url", 5), plain("http://x/#top", 5)),
                    (plain("negative", 6), plain("-5", 6))))
    }

    @Test func singleQuotedScalarsDoubleTheirQuotes() throws {
        #expect(
            try parse(#"['it''s', '', 'a "b" \n # c']"#)
                == sequence(
                    1, singleQuoted("it's", 1), singleQuoted("", 1), singleQuoted(#"a "b" \n # c"#, 1)))
    }

    @Test func doubleQuotedScalarsReadTheirEscapes() throws {
        let text = #"a: "\\ \" \/ \n \t \r \0 \x41 \u00e9 \U0001F600 'x' # y""#
        #expect(try parse(text)["a"] == doubleQuoted("\\ \" / \n \t \r \0 A \u{E9} \u{1F600} 'x' # y", 1))
    }

    @Test func keysMayBeQuoted() throws {
        #expect(
            try parse("\"a b\": 1\n'c: d' : 2\n")
                == mapping(
                    1, (doubleQuoted("a b", 1), plain("1", 1)), (singleQuoted("c: d", 2), plain("2", 2))))
    }

    @Test func duplicateKeysAreKeptInOrder() throws {
        #expect(
            try parse("a: 1\nb: 2\na: 3\n")
                == mapping(
                    1, (plain("a", 1), plain("1", 1)), (plain("b", 2), plain("2", 2)), (plain("a", 3), plain("3", 3))))
        #expect(
            try parse("{k: 1, k: 2}") == mapping(1, (plain("k", 1), plain("1", 1)), (plain("k", 1), plain("2", 1))))
    }

    // MARK: Flow collections

    @Test func flowCollectionsNestAndMaySpanLines() throws {
        let text = """
            matrix: [[1, 2], [], {}, {k: [v]}]
            multi: [
              one,   # the first
              "two",

              three,
            ]
            map: {a: 1,
              b: 2,}
            """
        #expect(
            try parse(text)
                == mapping(
                    1,
                    (
                        plain("matrix", 1),
                        sequence(
                            1,
                            sequence(1, plain("1", 1), plain("2", 1)),
                            sequence(1),
                            mapping(1),
                            mapping(1, (plain("k", 1), sequence(1, plain("v", 1)))))
                    ),
                    (plain("multi", 2), sequence(2, plain("one", 3), doubleQuoted("two", 4), plain("three", 6))),
                    (plain("map", 8), mapping(8, (plain("a", 8), plain("1", 8)), (plain("b", 9), plain("2", 9))))))
    }

    @Test func aFlowMappingKeyWithAColonButNoValueIsEmpty() throws {
        #expect(
            try parse("{a:, b: , \"c\":3}")
                == mapping(
                    1, (plain("a", 1), plain("", 1)), (plain("b", 1), plain("", 1)),
                    (doubleQuoted("c", 1), plain("3", 1))))
    }

    // MARK: Layout

    @Test func commentsAndBlankLinesMayGoAnywhere() throws {
        let text = "# head\n\na: # about a\n\n  # inside\n  b: 1 # tail\n\n   # odd indent\nc: [x] # after\n# end"
        #expect(
            try parse(text)
                == mapping(
                    3,
                    (plain("a", 3), mapping(6, (plain("b", 6), plain("1", 6)))),
                    (plain("c", 9), sequence(9, plain("x", 9)))))
    }

    @Test func documentMarkersAroundOneDocumentAreSkipped() throws {
        #expect(try parse("# c\n---\na: 1\n...\n# after\n") == mapping(3, (plain("a", 3), plain("1", 3))))
        #expect(try parse("--- # start\n- x\n") == sequence(2, plain("x", 2)))
    }

    @Test func crLineEndingsAndAByteOrderMarkAreAccepted() throws {
        #expect(
            try parse("\u{FEFF}a: 1\r\nb:\r\n  - x\r\n")
                == mapping(
                    1, (plain("a", 1), plain("1", 1)), (plain("b", 2), sequence(3, plain("x", 3)))))
        #expect(
            try parse("a: 1\rb: 2") == mapping(1, (plain("a", 1), plain("1", 1)), (plain("b", 2), plain("2", 2))))
    }

    @Test(arguments: [
        "", "\n\n", "# only\n  # comments\n", "---\n", "---\n...\n", "  \n\t\n", "\u{FEFF}", "--- # c\r\n",
    ])
    func aTextWithoutANodeGivesNil(text: String) throws {
        #expect(try YAMLParser.parse(text) == nil)
    }

    // MARK: Errors

    @Test func theErrorDescriptionNamesTheLine() {
        #expect(
            syntaxError("a: 1\nb: [1,\n")
                == YAMLSyntaxError(line: 2, message: "unterminated flow sequence ('[' without ']')"))
        #expect(YAMLSyntaxError(line: 3, message: "tab in indentation").description == "line 3: tab in indentation")
    }

    @Test(arguments: rejectedInputs)
    func rejectedInputNamesItsLineAndConstruct(input: RejectedInput) {
        let error = syntaxError(input.text)
        #expect(error?.line == input.line)
        #expect(error?.message.contains(input.construct) == true, "\(String(describing: error))")
    }

    /// Every construct outside the subset, and every layout mistake.
    static let rejectedInputs: [RejectedInput] = [
        .init("a:\n\tb: 1", line: 2, "tab in indentation"),
        .init("a:\n  b: 1\n \t c: 2", line: 3, "tab in indentation"),
        .init("a:\n-\tb", line: 2, "tab after '-'"),
        .init("a: &x 1", line: 1, "anchors"),
        .init("a: 1\nb: *x", line: 2, "aliases"),
        .init("a: !x 1", line: 1, "tags"),
        .init("a: !!str 1", line: 1, "tags"),
        .init("a: |\n  text", line: 1, "block scalars"),
        .init("a: >-\n  text", line: 1, "block scalars"),
        .init("? a\n: b", line: 1, "complex keys"),
        .init("[a]: b", line: 1, "complex keys"),
        .init("x: 1\n{a: 1}: b", line: 2, "complex keys"),
        .init("{[a]: b}", line: 1, "complex keys"),
        .init("a: one\n  two", line: 2, "multi-line plain scalars"),
        .init("a:\n  one\n  two", line: 3, "multi-line plain scalars"),
        .init("- one\n  two", line: 2, "multi-line plain scalars"),
        .init("one\ntwo", line: 2, "multi-line plain scalars"),
        .init("[one\n two]", line: 2, "multi-line plain scalars"),
        .init("a: 1\nb", line: 2, "mapping entry 'b' has no ':'"),
        .init("a: 1\nb:c", line: 2, "a ':' separates only when a space"),
        .init("a: 1\n\"b\" c: 2", line: 2, "mapping entry 'b' has no ':'"),
        .init("a: 1\n  b: 2", line: 2, "unexpected indentation"),
        .init("a: [1]\n  - 2", line: 2, "unexpected indentation"),
        .init("- a\n  - b", line: 2, "unexpected indentation"),
        .init("a:\n    b: 1\n  c: 2", line: 3, "inconsistent indentation"),
        .init("a:\n  - x\n - y", line: 3, "inconsistent indentation"),
        .init("  a: 1\nb: 2", line: 2, "inconsistent indentation"),
        .init("a: [1, 2\nb: 3", line: 1, "unterminated flow sequence ('[' without ']')"),
        .init("a: [1,\n2]", line: 1, "unterminated flow sequence ('[' without ']')"),
        .init("a:\n  b: [1,\n ]", line: 2, "unterminated flow sequence ('[' without ']')"),
        .init("a:\n  b: {x: 1,\n\n  y: 2}", line: 2, "unterminated flow mapping ('{' without '}')"),
        .init("a: {x: 1", line: 1, "unterminated flow mapping ('{' without '}')"),
        .init("a: [1] x", line: 1, "unexpected text after the flow collection"),
        .init("a: {\n  b: 1\n  } c", line: 3, "unexpected text after the flow collection"),
        .init("[1]\nb: 2", line: 2, "content after the document's root node"),
        .init("- a\nb: 1", line: 2, "expected a sequence item ('- ')"),
        .init("a:\n  - x\n  y: 1", line: 3, "found a mapping entry"),
        .init("a: 1\n- b", line: 2, "expected a mapping entry ('key: value')"),
        .init("a: 1\n---\nb: 2", line: 2, "only one document"),
        .init("---\na: 1\n---", line: 3, "only one document"),
        .init("a: 1\n...\nb: 2", line: 3, "only one document"),
        .init("--- a: 1", line: 1, "document marker line"),
        .init("%YAML 1.2\n---\na: 1", line: 1, "directives"),
        .init(#"a: "\q""#, line: 1, #"unknown escape '\q'"#),
        .init(#"a: "\x4""#, line: 1, "needs 2 hexadecimal digits"),
        .init(#"a: "\uD800""#, line: 1, "not a Unicode scalar"),
        .init("a: \"abc\nb: 1", line: 1, "unterminated double-quoted scalar"),
        .init("a:\n  - 'it''s\n  - b", line: 2, "unterminated single-quoted scalar"),
        .init(#"a: "x\"#, line: 1, "unterminated double-quoted scalar"),
        .init("a: 'x' y", line: 1, "unexpected text after the quoted scalar"),
        .init("a: 1\n\"b\":2", line: 2, "a ':' after a key must be followed by a space"),
        .init("a: b: c", line: 1, "a mapping cannot start on the same line as its key"),
        .init("a:\n  b: x:", line: 2, "a mapping cannot start on the same line as its key"),
        .init("a: - b", line: 1, "a block sequence cannot start on the same line as its key"),
        .init("[- a]", line: 1, "cannot appear inside a flow collection"),
        .init("{a}", line: 1, "flow mapping entry 'a' has no ': value'"),
        .init("{a:1}", line: 1, "a ':' must be followed by a space"),
        .init("[a: b]", line: 1, "'key: value' inside a flow sequence"),
        .init("[a,,b]", line: 1, "empty entry in the flow sequence"),
        .init("[a}", line: 1, "expected ',' or ']' in the flow sequence opened on line 1"),
        .init("{a: 1]", line: 1, "expected ',' or '}' in the flow mapping opened on line 1"),
        .init("{a: 1 b: 2}", line: 1, "expected ',' or '}'"),
        .init(": x", line: 1, "empty keys"),
        .init("a: @x", line: 1, "'@' cannot start a plain scalar"),
        .init("a: `x`", line: 1, "'`' cannot start a plain scalar"),
        .init("a: ]", line: 1, "']' cannot start a plain scalar"),
        .init("[#a]", line: 1, "'#' starts a comment only after a space"),
        .init("a: b\u{1}", line: 1, "control character U+0001"),
        .init(String(repeating: "[", count: 10_000), line: 1, "nested more than 64 deep"),
        .init(String(repeating: "- ", count: 1_000) + "x", line: 1, "nested more than 64 deep"),
    ]

    /// Thousands of parses, seconds of processor time in a debug build: on a thread of its own (`onOwnThread`), not on
    /// one of the two threads every other test's tasks share, which it and three others kept busy for seconds.
    @Test func everyTruncationOfAFileParsesOrNamesALineInIt() async {
        let text = Self.everyday
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        let (failures, outside) = await onOwnThread {
            var failures = 0
            var outside: [String] = []
            var index = text.startIndex
            while index < text.endIndex {
                let prefix = String(text[..<index])
                if let error = syntaxError(prefix) {
                    failures += 1
                    if !(1...lineCount).contains(error.line) {
                        outside.append("\(error) for \(prefix.debugDescription)")
                    }
                }
                index = text.index(after: index)
            }
            return (failures, outside)
        }
        #expect(outside.isEmpty, "errors naming no line of the text: \(outside.prefix(5))")
        // Cut inside a quoted scalar or a flow collection, a prefix must fail; cut at a line end it parses.
        #expect(failures > 0)
        #expect(syntaxError(String(text.prefix(while: { $0 != "g" }))) == nil)
    }
}

/// One text outside the subset, the line its error must name, and words its message must contain.
struct RejectedInput: Sendable, CustomTestStringConvertible {
    var text: String
    var line: Int
    var construct: String

    init(_ text: String, line: Int, _ construct: String) {
        self.text = text
        self.line = line
        self.construct = construct
    }

    var testDescription: String { String(text.prefix(40)).debugDescription }
}

private func parse(_ text: String) throws -> YAMLNode {
    try #require(try YAMLParser.parse(text))
}

private func syntaxError(_ text: String) -> YAMLSyntaxError? {
    do {
        _ = try YAMLParser.parse(text)
        return nil
    } catch {
        return error
    }
}

private func plain(_ text: String, _ line: Int) -> YAMLNode { YAMLNode(content: .scalar(text, .plain), line: line) }

private func singleQuoted(_ text: String, _ line: Int) -> YAMLNode {
    YAMLNode(content: .scalar(text, .singleQuoted), line: line)
}

private func doubleQuoted(_ text: String, _ line: Int) -> YAMLNode {
    YAMLNode(content: .scalar(text, .doubleQuoted), line: line)
}

private func mapping(_ line: Int, _ pairs: (YAMLNode, YAMLNode)...) -> YAMLNode {
    YAMLNode(content: .mapping(pairs.map { YAMLPair(key: $0.0, value: $0.1) }), line: line)
}

private func sequence(_ line: Int, _ items: YAMLNode...) -> YAMLNode {
    YAMLNode(content: .sequence(items), line: line)
}

extension YAMLNode {
    /// The value of the first entry whose key's text is `key`, for a mapping.
    fileprivate subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = content else { return nil }
        return pairs.first { pair in
            if case .scalar(let text, _) = pair.key.content { text == key } else { false }
        }?.value
    }

    fileprivate var keys: [String] {
        guard case .mapping(let pairs) = content else { return [] }
        return pairs.compactMap { pair in
            if case .scalar(let text, _) = pair.key.content { text } else { nil }
        }
    }
}
