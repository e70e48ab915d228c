import Foundation
import Hummingbird
import Testing

@testable import WebUI

struct AccessGuardTests {
    typealias Guard = AccessGuard<BasicRequestContext>

    private func options(user: String? = nil, password: String? = nil, token: String? = nil) throws -> HTTPOptions {
        var options = try HTTPOptions(listen: "8080")
        options.username = user
        options.password = password
        options.token = token
        return options
    }

    private func basic(_ credentials: String) -> String { "Basic " + Data(credentials.utf8).base64EncodedString() }

    @Test func withoutCredentialsConfiguredEveryoneIsLetIn() throws {
        #expect(Guard.isAllowed(authorization: nil, queryToken: nil, options: try options()))
    }

    @Test func basicAuthenticationNeedsTheExactPair() throws {
        let options = try options(user: "ops", password: "s3cret")
        #expect(Guard.isAllowed(authorization: basic("ops:s3cret"), queryToken: nil, options: options))
        #expect(!Guard.isAllowed(authorization: basic("ops:s3cre"), queryToken: nil, options: options))
        #expect(!Guard.isAllowed(authorization: basic("ops:s3cret2"), queryToken: nil, options: options))
        #expect(!Guard.isAllowed(authorization: "Basic not-base64!", queryToken: nil, options: options))
        #expect(!Guard.isAllowed(authorization: nil, queryToken: nil, options: options))
    }

    @Test func aTokenOpensAsBearerOrQueryParameter() throws {
        let options = try options(token: "t0k3n")
        #expect(Guard.isAllowed(authorization: "Bearer t0k3n", queryToken: nil, options: options))
        #expect(Guard.isAllowed(authorization: nil, queryToken: "t0k3n", options: options))
        #expect(!Guard.isAllowed(authorization: "Bearer t0k3", queryToken: "x", options: options))
        #expect(!Guard.isAllowed(authorization: basic("t0k3n:t0k3n"), queryToken: nil, options: options))
    }

    @Test func comparisonDependsOnEveryByte() {
        #expect(Guard.constantTimeEqual("abc", "abc"))
        #expect(!Guard.constantTimeEqual("abc", "abd"))
        #expect(!Guard.constantTimeEqual("abc", "abcd"))
        #expect(!Guard.constantTimeEqual("", "a"))
    }
}
