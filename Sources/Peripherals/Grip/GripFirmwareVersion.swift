/// A grip firmware version, `X.Y.Z` (the SDK's `FirmwareVersion` follows semantic versioning and is
/// `Comparable`). Ordered by major, then minor, then patch, numerically (`1.10.0` > `1.9.9`).
///
/// Parsing accepts exactly three dot-separated non-negative decimal numbers, after trimming white space
/// and NUL padding (Device Information strings are often NUL-padded) and one optional leading `v`.
/// Pre-release and build suffixes (`-rc.1`, `+abc`) are refused: the notes show none for the grip, and
/// refusing is safer than guessing their order. In JSON a version is the string `"X.Y.Z"`.
public struct GripFirmwareVersion: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Major version.
    public let major: Int
    /// Minor version.
    public let minor: Int
    /// Patch version.
    public let patch: Int

    /// Creates a version from its numbers; negative numbers become 0.
    public init(major: Int, minor: Int, patch: Int) {
        self.major = max(0, major)
        self.minor = max(0, minor)
        self.patch = max(0, patch)
    }

    /// Parses `X.Y.Z`; nil for anything else.
    public init?(string: String) {
        var text = Substring(string.trimming { $0.isWhitespace || $0 == "\0" })
        if text.first == "v" || text.first == "V" { text = text.dropFirst() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 9, part.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(part)
            else { return nil }
            numbers.append(number)
        }
        self.init(major: numbers[0], minor: numbers[1], patch: numbers[2])
    }

    /// `X.Y.Z`.
    public var description: String { "\(major).\(minor).\(patch)" }

    /// Compares major, then minor, then patch.
    public static func < (lhs: GripFirmwareVersion, rhs: GripFirmwareVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    /// Decodes the string form.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let version = GripFirmwareVersion(string: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(text.debugDescription) is not a version X.Y.Z")
        }
        self = version
    }

    /// Encodes the string form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
