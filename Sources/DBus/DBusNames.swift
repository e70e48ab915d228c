/// Checks of names and paths that libdbus would otherwise reject by aborting the process.
enum DBusNames {
    /// `/`, or `/` followed by non-empty elements of `[A-Za-z0-9_]` separated by single slashes.
    static func isValidObjectPath(_ path: String) -> Bool {
        guard path.first == "/" else { return false }
        if path == "/" { return true }
        guard path.last != "/" else { return false }
        for element in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            guard !element.isEmpty, element.utf8.allSatisfy(isPathByte) else { return false }
        }
        return true
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x5F
    }

    /// Turns any text into a valid object-path element (`AA:BB` → `AA_BB`).
    public static func pathElement(_ text: String) -> String {
        let mapped = String(decoding: text.utf8.map { isPathByte($0) ? $0 : 0x5F }, as: UTF8.self)
        return mapped.isEmpty ? "_" : mapped
    }
}
