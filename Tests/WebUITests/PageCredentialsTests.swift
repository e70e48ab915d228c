import Foundation
import Testing

@testable import WebUI

/// Which credentials open the page; whether a guess counts as one (`wrong`) or is only a first visit (`missing`).
struct PageCredentialsTests {
    /// PHP's documented example of `password_hash` (cost 10, `$2y$`): a hash another implementation made.
    static let phpHash = "$2y$10$.vGA1O9wmRjrwAVXD98HNOgsNpDczlqm3Jq7KnEd1rVAGv3Fykk1a"
    static let phpPassword = "rasmuslerdorf"

    private func basic(_ credentials: String) -> String { "Basic " + Data(credentials.utf8).base64EncodedString() }

    private func check(_ credentials: PageCredentials, _ authorization: String?, token: String? = nil) async
        -> PageCredentials.Outcome
    {
        await credentials.check(authorization: authorization, queryToken: token)
    }

    @Test func withoutCredentialsConfiguredEveryoneIsLetIn() async {
        #expect(await check(PageCredentials(), nil) == .allowed)
        #expect(await check(PageCredentials(username: "ops"), nil) == .allowed, "a user name alone asks for nothing")
    }

    @Test func basicAuthenticationNeedsTheExactPair() async {
        let credentials = PageCredentials(username: "ops", password: .plain("s3cret"))
        #expect(await check(credentials, basic("ops:s3cret")) == .allowed)
        #expect(await check(credentials, basic("ops:s3cre")) == .wrong)
        #expect(await check(credentials, basic("ops:s3cret2")) == .wrong)
        #expect(await check(credentials, "Basic not-base64!") == .wrong)
        #expect(await check(credentials, "Basic") == .wrong)
        #expect(await check(credentials, nil) == .missing, "a first visit without credentials is not a guess")
    }

    /// RFC 9110, 11.1: the scheme is case-insensitive; `basic` in lower case was refused before.
    @Test(arguments: ["Basic", "basic", "BASIC", "bAsIc"])
    func theBasicSchemeIsAcceptedInAnyCase(_ scheme: String) async {
        let credentials = PageCredentials(username: "ops", password: .plain("s3cret"))
        let encoded = Data("ops:s3cret".utf8).base64EncodedString()
        #expect(await check(credentials, "\(scheme) \(encoded)") == .allowed)
        #expect(await check(credentials, "\(scheme)   \(encoded)") == .allowed, "several spaces may follow the scheme")
    }

    @Test(arguments: ["Bearer", "bearer", "BEARER"])
    func aTokenOpensAsBearerInAnyCaseOrAsQueryParameter(_ scheme: String) async {
        let credentials = PageCredentials(token: "t0k3n")
        #expect(await check(credentials, "\(scheme) t0k3n") == .allowed)
        #expect(await check(credentials, nil, token: "t0k3n") == .allowed)
        #expect(await check(credentials, "\(scheme) t0k3", token: "x") == .wrong)
        #expect(await check(credentials, nil, token: "x") == .wrong, "a wrong ?token= is a guess too")
        #expect(await check(credentials, basic("t0k3n:t0k3n")) == .wrong)
    }

    @Test func aBcryptHashFromAnotherImplementationOpensWithItsPasswordOnly() async throws {
        for prefix in ["$2y$", "$2b$", "$2a$"] {
            let hash = try #require(BcryptPassword(prefix + Self.phpHash.dropFirst(4)))
            let credentials = PageCredentials(username: "ops", password: .bcrypt(hash))
            #expect(await check(credentials, basic("ops:\(Self.phpPassword)")) == .allowed, "\(prefix)")
            #expect(await check(credentials, basic("ops:rasmuslerdorF")) == .wrong, "\(prefix)")
            #expect(await check(credentials, basic("root:\(Self.phpPassword)")) == .wrong, "the user name counts too")
            #expect(await check(credentials, basic("ops")) == .wrong, "no colon, no password")
        }
    }

    @Test(arguments: [
        "", "secret", String(phpHash.dropLast()), phpHash + "x", "$2x$" + phpHash.dropFirst(4),
        "$2y$03$" + phpHash.dropFirst(7),
        "$2y$16$" + phpHash.dropFirst(7), "$2y$10$" + String(repeating: "!", count: 53),
    ])
    func onlyABcryptHashWithAReasonableCostIsTaken(_ text: String) {
        #expect(BcryptPassword(text) == nil)
        #expect(!BcryptPassword.isHash(text))
    }

    /// A check beyond the slots is told to come back rather than queued, so guesses cannot keep every core busy.
    @Test func checksBeyondTheSlotsAreBusyNotQueued() async throws {
        let hash = try #require(BcryptPassword(Self.phpHash, concurrentChecks: 0))
        #expect(await hash.verify("wrong") == .busy)
        let credentials = PageCredentials(username: "ops", password: .bcrypt(hash))
        #expect(await check(credentials, basic("ops:wrong")) == .busy)
    }

    @Test func comparisonDependsOnEveryByte() {
        #expect(ConstantTime.equal("abc", "abc"))
        #expect(!ConstantTime.equal("abc", "abd"))
        #expect(!ConstantTime.equal("abc", "abcd"))
        #expect(!ConstantTime.equal("", "a"))
    }

    @Test func anAuthorizationHeaderSplitsIntoSchemeAndCredentials() {
        #expect(AuthorizationHeader("Basic abc") == AuthorizationHeader("basic  abc"))
        #expect(AuthorizationHeader("BEARER x")?.scheme == "bearer")
        #expect(AuthorizationHeader("Bearer x")?.credentials == "x")
        #expect(AuthorizationHeader("Bearer") == nil)
        #expect(AuthorizationHeader("Bearer   ") == nil)
        #expect(AuthorizationHeader("") == nil)
    }
}
