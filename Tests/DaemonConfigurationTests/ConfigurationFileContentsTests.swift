import Foundation
import Glibc
import Testing

@testable import DaemonConfiguration

/// Files the configuration names are read bounded, and a failure says what the system said.
struct ConfigurationFileContentsTests {
    @Test func aFileUpToTheLimitIsReadWhole() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("secret", "s3cret\n")
        #expect(try ConfigurationFileContents.read(file).get() == Data("s3cret\n".utf8))
        let large = try folder.write("large", String(repeating: "x", count: 100))
        #expect(try ConfigurationFileContents.read(large, limit: 100).get().count == 100)
    }

    @Test func aFileBeyondTheLimitIsRefusedUnread() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("large", String(repeating: "x", count: ConfigurationFileContents.limit + 1))
        let failure = try #require(ConfigurationFileContents.read(file).failureValue)
        #expect(failure.reason == "it holds 1048577 bytes, more than the 1048576 a configuration file may")
    }

    /// A pipe nobody writes to would block a plain read for ever: it is refused at once.
    @Test func aPipeIsRefusedAtOnce() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(
            ConfigurationFileContents.read(fifo).failureValue?.reason
                == "it is not a regular file (a device, a pipe or a socket)")
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any file"))
    func anUnreadableFileSaysPermissionDenied() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("secret", "s3cret")
        #expect(chmod(file, 0) == 0)
        #expect(ConfigurationFileContents.read(file).failureValue?.reason == "permission denied")
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
