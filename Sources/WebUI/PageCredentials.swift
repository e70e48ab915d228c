#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The credentials that open the page: basic authentication (the password in plain text or as a bcrypt hash), a
/// token (as `Authorization: Bearer …` or `?token=…`: a browser's WebSocket cannot set headers), or both. With
/// none configured, everyone is let in: the server listens on loopback unless told otherwise.
struct PageCredentials: Sendable {
    enum Password: Sendable {
        case plain(String)
        case bcrypt(BcryptPassword)
    }

    enum Outcome: Equatable, Sendable {
        case allowed
        /// No credentials were offered: a browser's first request, not a guess.
        case missing
        case wrong
        /// Every bcrypt slot is taken: try again in a moment.
        case busy
    }

    let username: String?
    let password: Password?
    let token: String?

    init(username: String? = nil, password: Password? = nil, token: String? = nil) {
        self.username = username
        self.password = password
        self.token = token
    }

    init(options: HTTPOptions) {
        let password: Password? =
            options.passwordHash.flatMap { BcryptPassword($0) }.map { .bcrypt($0) }
            ?? options.password.map { .plain($0) }
        self.init(username: options.username, password: password, token: options.token)
    }

    /// Whether anything is asked for at all.
    var isRequired: Bool { (username != nil && password != nil) || token != nil }

    func check(authorization: String?, queryToken: String?) async -> Outcome {
        guard isRequired else { return .allowed }
        let header = authorization.flatMap(AuthorizationHeader.init)
        if let token {
            if let queryToken, ConstantTime.equal(queryToken, token) { return .allowed }
            if let header, header.scheme == "bearer", ConstantTime.equal(header.credentials, token) { return .allowed }
        }
        if let username, let password, let header, header.scheme == "basic" {
            switch await Self.checkBasic(header.credentials, username: username, password: password) {
            case .allowed: return .allowed
            case .busy: return .busy
            default: break
            }
        }
        return authorization == nil && queryToken == nil ? .missing : .wrong
    }

    /// `user:password` in base64 against the configured pair.
    private static func checkBasic(_ encoded: String, username: String, password: Password) async -> Outcome {
        guard let data = Data(base64Encoded: encoded) else { return .wrong }
        let decoded = String(decoding: data, as: UTF8.self)
        switch password {
        case .plain(let expected):
            return ConstantTime.equal(decoded, "\(username):\(expected)") ? .allowed : .wrong
        case .bcrypt(let hash):
            let colon = decoded.firstIndex(of: ":") ?? decoded.endIndex
            let userMatches = ConstantTime.equal(String(decoded[..<colon]), username)
            // bcrypt runs whether or not the user name matched, so the time taken does not tell which was wrong.
            let outcome = await hash.verify(
                colon < decoded.endIndex ? String(decoded[decoded.index(after: colon)...]) : "")
            if outcome == .busy { return .busy }
            return userMatches && outcome == .match ? .allowed : .wrong
        }
    }
}
