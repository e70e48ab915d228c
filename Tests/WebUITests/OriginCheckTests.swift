import Testing

@testable import WebUI

/// The page's WebSocket upgrades only for its own page (against cross-site WebSocket hijacking). Issue #56: an
/// `Origin` of `https://127.0.0.1:PORT` passed, though the page is served over plain HTTP only, so an https page on
/// the same host and port (another origin) could open the WebSocket of a page without credentials.
struct OriginCheckTests {
    @Test(arguments: ["http://127.0.0.1:8080", "HTTP://127.0.0.1:8080", "http://Gateway.Local:8080"])
    func thePagesOwnOriginPasses(origin: String) {
        let host = origin.hasSuffix("Local:8080") ? "gateway.local:8080" : "127.0.0.1:8080"
        #expect(LivePageServer.isSameOrigin(origin, host: host))
    }

    @Test(arguments: [
        "https://127.0.0.1:8080", "http://127.0.0.1:8081", "http://127.0.0.1", "http://evil.example:8080",
        "http://127.0.0.1:8080.evil.example", "null", "",
    ])
    func anyOtherOriginIsRefused(origin: String) {
        #expect(!LivePageServer.isSameOrigin(origin, host: "127.0.0.1:8080"))
        #expect(!LivePageServer.isSameOrigin(origin, host: nil))
    }
}
