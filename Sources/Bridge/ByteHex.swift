extension [UInt8] {
    /// Lower-case hex without separators, for logs.
    var hex: String { map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() }
}
