import Foundation
import Testing

@testable import Bridge

struct JSONQuotingTests {
    /// Quotes, backslashes and every control character (DEL too) are escaped: the result is JSON, and also a YAML
    /// double-quoted scalar, which the effective configuration is printed with.
    @Test func controlCharactersAndDeleteAreEscaped() throws {
        let text = "a\"b\\c\nd\re\tf\u{01}g\u{1F}h\u{7F}é😀"
        let quoted = JSONValue.quoted(text)
        #expect(quoted == #""a\"b\\c\nd\re\tf\u0001g\u001fh\u007fé😀""#)
        #expect(!quoted.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        // And it reads back as the same string.
        #expect(try JSONDecoder().decode(String.self, from: Data(quoted.utf8)) == text)
    }
}
