import Foundation
import TestSupport
import Testing

@testable import WebUI

/// docs/live-page.md states what the server enforces: the requests a page may send, the connection limits'
/// defaults, the idle deadline, a frame's payload limit and how many password checks run at once. Each figure is
/// read from the text and compared with the code's own, so a change to one fails here instead of misleading the
/// reader (the page once listed six requests of nine, and a connection limit the code had left behind).
struct LivePageDocumentTests {
    static let text: String = {
        (try? String(contentsOfFile: ProjectPaths.root + "/docs/live-page.md", encoding: .utf8)) ?? ""
    }()

    /// The first capture of `pattern` in the document, or a failed expectation naming what was looked for.
    static func stated(_ pattern: Regex<(Substring, Substring)>, _ what: String) -> String? {
        let found = text.firstMatch(of: pattern).map { String($0.output.1) }
        #expect(found != nil, "docs/live-page.md no longer states \(what)")
        return found
    }

    @Test func theRequestFrameListsEveryRequestThePageTakes() throws {
        let list = try #require(Self.stated(/\| `request` \| `id`, `gateway`, `request` \(([^)]*)\)/, "the requests"))
        let named = list.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
        #expect(named == PageRequest.requestNames)
    }

    @Test func theConnectionLimitsAreTheDefaults() throws {
        let defaults = try HTTPOptions(listen: "8080")
        let all = Self.stated(/`http\.max_connections`, default (\d+)/, "the limit in all")
        let perSource = Self.stated(/`http\.max_connections_per_source`, default (\d+)/, "the limit per source")
        #expect(all == String(defaults.maxConnections))
        #expect(perSource == String(defaults.maxConnectionsPerSource))
    }

    @Test func theIdleDeadlineIsTheServers() {
        let seconds = Self.stated(/not sent a whole request head within (\d+) s/, "the request head's deadline")
        #expect(seconds == String(LivePageServer.idleSeconds))
    }

    @Test func aPageMayHaveItsFramesInFlight() {
        let frames = Self.stated(/a page may have (\d+) frames waiting for replies/, "the frames in flight")
        #expect(frames == String(LivePageServer.framesInFlight))
    }

    @Test func aCommandsPayloadLimitIsThePages() {
        let kibibytes = Self.stated(/`payload` \(text, at most (\d+) KiB\)/, "the payload limit")
        #expect(kibibytes == String(PageRequest.payloadLimit / 1024))
    }

    @Test func passwordChecksAtOnceAreTheHashers() {
        let words = ["one": 1, "two": 2, "three": 3, "four": 4]
        let count = Self.stated(/at most (\w+) run at once/, "how many password checks run at once")
        #expect(count.flatMap { words[$0] ?? Int($0) } == BcryptPassword.concurrentChecks)
    }
}
