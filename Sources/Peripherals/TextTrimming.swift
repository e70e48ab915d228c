extension StringProtocol {
    /// The text without the leading and trailing characters `drop` matches (default: white space and
    /// line breaks). FoundationEssentials, which the daemon runs on, has no `trimmingCharacters(in:)`.
    public func trimming(where drop: (Character) -> Bool = \.isWhitespace) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
