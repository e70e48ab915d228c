import Hummingbird
import Testing

@testable import WebUI

/// Requests are served only under names the gateway answers to (against DNS rebinding).
struct HostGuardTests {
    typealias Guard = HostGuard<BasicRequestContext>

    private func options(_ listen: String = "8080", hosts: [String] = []) throws -> HTTPOptions {
        var options = try HTTPOptions(listen: listen)
        options.hosts = hosts
        return options
    }

    @Test func addressesLocalhostAndTheListenHostAreServed() throws {
        let loopback = try options()
        for authority in [
            "127.0.0.1:8080", "127.0.0.1", "192.168.1.20:8080", "[::1]:8080", "localhost:8080", "LOCALHOST",
            "localhost.:8080",
        ] {
            #expect(Guard.isAllowed(authority: authority, options: loopback), "\(authority)")
        }
        #expect(Guard.isAllowed(authority: "gw-kitchen:8080", options: try options("gw-kitchen:8080")))
    }

    /// The rebinding attacker's name, and anything that is not a plain host.
    @Test func otherNamesAreRefused() throws {
        let loopback = try options()
        for authority in [
            nil, "", "evil.example:8080", "evil.example", "127.0.0.1.evil.example", "localhost.evil.example:8080",
            "localhost:80x", "256.1.1.1:8080", "1.2.3:8080", "[::1",
        ] as [String?] {
            #expect(!Guard.isAllowed(authority: authority, options: loopback), "\(authority ?? "no Host")")
        }
    }

    @Test func configuredNamesAreServed() throws {
        let options = try options("0.0.0.0:8080", hosts: ["Gateway.local"])
        #expect(Guard.isAllowed(authority: "gateway.local:8080", options: options))
        #expect(!Guard.isAllowed(authority: "gateway.lan:8080", options: options))
    }
}
