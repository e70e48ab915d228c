import Testing

@testable import WebUI

struct HTTPOptionsTests {
    @Test(arguments: [
        ("8080", "127.0.0.1", 8080, "http://127.0.0.1:8080/"),
        ("127.0.0.1:9000", "127.0.0.1", 9000, "http://127.0.0.1:9000/"),
        ("0.0.0.0:80", "0.0.0.0", 80, "http://127.0.0.1:80/"),
        ("[::1]:8080", "::1", 8080, "http://[::1]:8080/"),
        ("gateway.local:8080", "gateway.local", 8080, "http://gateway.local:8080/"),
    ])
    func listenAddressesParse(_ text: String, _ host: String, _ port: Int, _ page: String) throws {
        let options = try HTTPOptions(listen: text)
        #expect(options.host == host)
        #expect(options.port == port)
        #expect(options.pageURL == page)
    }

    @Test(arguments: ["", ":8080", "host:", "host:0", "host:65536", "host:http", "[::1]8080", "a b:80", "80800"])
    func badListenAddressesAreRefusedWithTheReason(_ text: String) {
        #expect(throws: HTTPOptionsError.self) { try HTTPOptions(listen: text) }
    }

    /// The link Home Assistant shows on the gateway's device page: an address a browser elsewhere can open, or none.
    @Test func theLinkNamesAnAddressThatReachesThePage() throws {
        #expect(try HTTPOptions(listen: "8080").linkURL == "http://127.0.0.1:8080/")
        #expect(try HTTPOptions(listen: "192.168.1.2:80").linkURL == "http://192.168.1.2:80/")
        #expect(try HTTPOptions(listen: "[fd00::2]:80").linkURL == "http://[fd00::2]:80/")
        var everywhere = try HTTPOptions(listen: "0.0.0.0:8080")
        #expect(everywhere.linkURL == nil, "no name is known to reach it")
        everywhere.hosts = ["gateway.local", "gw"]
        everywhere.token = "secret"
        #expect(everywhere.linkURL == "http://gateway.local:8080/", "the first name it answers to, and never the token")
    }

    @Test func onlyLoopbackCountsAsLoopback() throws {
        #expect(try HTTPOptions(listen: "8080").isLoopback)
        #expect(try HTTPOptions(listen: "[::1]:1").isLoopback)
        #expect(try !HTTPOptions(listen: "0.0.0.0:1").isLoopback)
        #expect(try !HTTPOptions(listen: "192.168.1.2:1").isLoopback)
    }
}
