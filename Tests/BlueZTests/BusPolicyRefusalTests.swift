import Glibc
import Testing

@testable import BlueZ

/// What the log says when the bus's policy refuses BlueZ: the ids the bus judged (a container's user is unknown
/// to the host, so its numbers are what a user needs) and what lets the process in.
struct BusPolicyRefusalTests {
    @Test func theRefusalNamesTheIdsThePolicyAndTheFix() {
        let line = BusPolicyRefusal.explanation(
            busSaid: "org.freedesktop.DBus.Error.AccessDenied: Rejected send message")
        #expect(line.contains("uid \(getuid()), gid \(getgid()), groups "))
        #expect(line.contains("bluetooth.conf"))
        #expect(line.contains("--group-add"))
        #expect(line.hasSuffix("the bus said: org.freedesktop.DBus.Error.AccessDenied: Rejected send message"))
        #expect(!line.contains("\n"), "one log line")
    }
}
