/// An `Authorization` header split into its scheme and the rest. The scheme is compared without regard to case
/// (RFC 9110, 11.1: `basic`, `Basic` and `BASIC` are one scheme), and any run of spaces may separate the two.
struct AuthorizationHeader: Equatable, Sendable {
    /// Lower case.
    let scheme: String
    let credentials: String

    init?(_ value: String) {
        let trimmed = value.drop { $0 == " " }
        guard let space = trimmed.firstIndex(of: " ") else { return nil }
        scheme = trimmed[..<space].lowercased()
        credentials = String(trimmed[space...].drop { $0 == " " })
        guard !scheme.isEmpty, !credentials.isEmpty else { return nil }
    }
}
